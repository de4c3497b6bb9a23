package dev.msgbench.core.cpu;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the machine, the load generator and the local broker used of the CPUs between two
 * snapshots. Cores are CPU seconds per second: 1.5 is one core and a half kept busy.
 *
 * @param seconds         how long between the two snapshots
 * @param machineCores    the CPUs the kernel listed; 0 where it listed none (no {@code /proc/stat})
 * @param busyShare       of the wall time of all the machine's CPUs, the share they were neither idle nor
 *                        stolen; null without {@code /proc/stat}
 * @param stealShare      of it, the share the hypervisor took while the CPUs wanted to run; null where not reported
 * @param busyShareByCpu  each CPU's busy share, by CPU number
 * @param generatorCores  this JVM: the load generator
 * @param spinningCores   of that, the producers' spinning before their sends
 * @param brokerCores     every process of the local broker; null without a local broker
 * @param brokerNodeCores each node's process tree, node 1 first; empty without a local broker
 * @param interruptCores  of the machine's busy cores, those in irq and softirq (loopback traffic is
 *                        mostly softirq); null without {@code /proc/stat}
 * @param othersCores     what else ran on the machine: its busy cores less the load generator's, the
 *                        broker's and the interrupts' (which may be charged to either, so this errs
 *                        low); null without {@code /proc/stat}
 */
public record CpuUsage(double seconds, int machineCores, Double busyShare, Double stealShare,
                       Map<Integer, Double> busyShareByCpu, double generatorCores, double spinningCores,
                       Double brokerCores, List<Double> brokerNodeCores, Double interruptCores, Double othersCores) {

    public CpuUsage {
        busyShareByCpu = Map.copyOf(busyShareByCpu);
        brokerNodeCores = List.copyOf(brokerNodeCores);
    }

    /**
     * The use between {@code from} and {@code to}, taken in that order by the same watch.
     *
     * <p>A CPU's busy share is the wall time it was neither idle nor stolen. Not its busy ticks:
     * the kernel counts busy time by sampling what runs at each timer tick, and a tickless kernel
     * stops the tick on an idle CPU, so the short bursts of work a messaging run wakes a CPU for
     * slip between the ticks (a NATS run at 3,000 msg/s read 10% busy that way while its two
     * processes used 37%); idle time it measures exactly, from entering idle to leaving it.
     */
    public static CpuUsage between(CpuSnapshot from, CpuSnapshot to) {
        double seconds = Math.max(1e-9, (to.nanoTime() - from.nanoTime()) / 1e9);
        double wallTicks = seconds * CpuTimes.TICKS_PER_SECOND;
        double busySum = 0;
        long steal = 0;
        long interrupts = 0;
        int cpus = 0;
        Map<Integer, Double> byCpu = new LinkedHashMap<>();
        for (CpuTimes.Cpu now : to.machine().cpus()) {
            CpuTimes.Cpu before = from.machine().cpu(now.number());
            if (before == null) {
                // a CPU brought online in between: nothing to compare with
                continue;
            }
            long cpuSteal = now.stealTicks() - before.stealTicks();
            long notRunning = now.idleTicks() - before.idleTicks() + cpuSteal;
            double share = Math.max(0, Math.min(1, 1 - notRunning / wallTicks));
            busySum += share;
            steal += cpuSteal;
            interrupts += now.interruptTicks() - before.interruptTicks();
            cpus++;
            byCpu.put(now.number(), share);
        }
        int cores = to.machine().cpus().size();
        Double busyShare = cpus == 0 ? null : busySum / cpus;
        Double stealShare = cpus == 0 || !to.machine().stealReported() ? null : Math.min(1, steal / (wallTicks * cpus));
        double generator = Math.max(0, to.generatorCpuNanos() - from.generatorCpuNanos()) / 1e9 / seconds;
        double spinning = Math.max(0, to.spunNanos() - from.spunNanos()) / 1e9 / seconds;
        Double broker = null;
        List<Double> nodes = new ArrayList<>();
        if (to.brokerNodes() != null) {
            long brokerTicks = Math.max(0, to.brokerHelperTicks() - from.brokerHelperTicks());
            for (int n = 0; n < to.brokerNodes().size(); n++) {
                long ticks = nodeTicks(from.brokerNodes() != null && n < from.brokerNodes().size()
                        ? from.brokerNodes().get(n) : null, to.brokerNodes().get(n));
                brokerTicks += ticks;
                nodes.add(cores(ticks, seconds));
            }
            broker = cores(brokerTicks, seconds);
        }
        Double interruptCores = busyShare == null ? null : cores(interrupts, seconds);
        Double others = busyShare == null ? null
                : Math.max(0, busyShare * cores - generator - (broker == null ? 0 : broker) - interruptCores);
        return new CpuUsage(seconds, cores, busyShare, stealShare, byCpu, generator, Math.min(spinning, generator),
                broker, nodes, interruptCores, others);
    }

    /**
     * The use over this interval and {@code next} together, as if measured between the first's
     * start and the second's end (each figure weighted by its interval's length): how a coarser
     * interval of the log is described.
     */
    public CpuUsage plus(CpuUsage next) {
        double total = seconds + next.seconds;
        double a = seconds / total;
        double b = next.seconds / total;
        Map<Integer, Double> byCpu = new LinkedHashMap<>();
        busyShareByCpu.forEach((cpu, share) -> {
            Double other = next.busyShareByCpu.get(cpu);
            if (other != null) {
                byCpu.put(cpu, a * share + b * other);
            }
        });
        List<Double> nodes = new ArrayList<>();
        for (int n = 0; n < Math.min(brokerNodeCores.size(), next.brokerNodeCores.size()); n++) {
            nodes.add(a * brokerNodeCores.get(n) + b * next.brokerNodeCores.get(n));
        }
        return new CpuUsage(total, Math.max(machineCores, next.machineCores), weigh(busyShare, a, next.busyShare, b),
                weigh(stealShare, a, next.stealShare, b), byCpu, a * generatorCores + b * next.generatorCores,
                a * spinningCores + b * next.spinningCores, weigh(brokerCores, a, next.brokerCores, b), nodes,
                weigh(interruptCores, a, next.interruptCores, b), weigh(othersCores, a, next.othersCores, b));
    }

    private static Double weigh(Double x, double a, Double y, double b) {
        return x == null || y == null ? null : a * x + b * y;
    }

    /**
     * One node's ticks in between. A node restarted in between (a new pid) started after
     * {@code from}: all its ticks are in between, and the ended process's last ones are lost.
     */
    private static long nodeTicks(CpuSnapshot.NodeTicks from, CpuSnapshot.NodeTicks to) {
        if (to.ticks() == ProcessTicks.GONE) {
            return 0;
        }
        if (from == null || from.pid() != to.pid() || from.ticks() == ProcessTicks.GONE) {
            return to.ticks();
        }
        return Math.max(0, to.ticks() - from.ticks());
    }

    private static double cores(long ticks, double seconds) {
        return ticks / (double) CpuTimes.TICKS_PER_SECOND / seconds;
    }

    /** The machine's busy CPUs: its busy share of all its CPUs; null without {@code /proc/stat}. */
    public Double busyCores() {
        return busyShare == null ? null : busyShare * machineCores;
    }

    /** How busy these CPUs were, on average; null when the kernel listed none of them. */
    public Double busyShareOf(CpuList cpus) {
        double sum = 0;
        int n = 0;
        for (int cpu : cpus.cpus()) {
            Double share = busyShareByCpu.get(cpu);
            if (share != null) {
                sum += share;
                n++;
            }
        }
        return n == 0 ? null : sum / n;
    }

    /** For result.json's {@code cpu}: the figures, rounded to what ticks of 10 ms can tell. */
    public Map<String, Object> describe() {
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cores", machineCores);
        machine.put("busyShare", round(busyShare));
        machine.put("busyCores", round(busyCores()));
        machine.put("stealShare", round(stealShare));
        machine.put("interruptCores", round(interruptCores));
        Map<String, Object> byCpu = new LinkedHashMap<>();
        busyShareByCpu.keySet().stream().sorted().forEach(cpu -> byCpu.put(Integer.toString(cpu), round(busyShareByCpu.get(cpu))));
        machine.put("busyShareByCpu", byCpu);
        Map<String, Object> generator = new LinkedHashMap<>();
        generator.put("cores", round(generatorCores));
        generator.put("spinningCores", round(spinningCores));
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("seconds", round(seconds));
        d.put("machine", machine);
        d.put("loadGenerator", generator);
        if (brokerCores == null) {
            d.put("broker", null);
        } else {
            Map<String, Object> broker = new LinkedHashMap<>();
            broker.put("cores", round(brokerCores));
            broker.put("nodeCores", brokerNodeCores.stream().map(CpuUsage::round).toList());
            d.put("broker", broker);
        }
        d.put("othersCores", round(othersCores));
        return d;
    }

    /**
     * One line for the summary and the interval log:
     * {@code machine 93% busy of 2 cores (steal 0%); load generator 1.02 cores (0.95 spinning), broker 0.79,
     * interrupts 0.10, other processes 0.04}.
     */
    public String line() {
        StringBuilder sb = new StringBuilder();
        if (busyShare == null) {
            sb.append("machine: not reported");
        } else {
            sb.append(String.format(Locale.US, "machine %.0f%% busy of %d cores", 100 * busyShare, machineCores));
            if (stealShare != null) {
                sb.append(String.format(Locale.US, " (steal %.0f%%)", 100 * stealShare));
            }
        }
        sb.append(String.format(Locale.US, "; load generator %.2f cores", generatorCores));
        if (spinningCores >= 0.005) {
            sb.append(String.format(Locale.US, " (%.2f spinning)", spinningCores));
        }
        if (brokerCores != null) {
            sb.append(String.format(Locale.US, ", broker %.2f", brokerCores));
            if (brokerNodeCores.size() > 1) {
                sb.append(" (nodes ").append(String.join(" + ", brokerNodeCores.stream()
                        .map(c -> String.format(Locale.US, "%.2f", c)).toList())).append(')');
            }
        }
        if (interruptCores != null) {
            sb.append(String.format(Locale.US, ", interrupts %.2f", interruptCores));
        }
        if (othersCores != null) {
            sb.append(String.format(Locale.US, ", other processes %.2f", othersCores));
        }
        return sb.toString();
    }

    /** intervals.csv's columns for this interval: busy and steal shares, load generator and broker cores; empty where unknown. */
    public List<String> csvColumns() {
        return List.of(csv(busyShare), csv(stealShare), csv(generatorCores), csv(brokerCores));
    }

    /** The header of {@link #csvColumns}, and what it writes where nothing was watched. */
    public static final List<String> CSV_HEADER = List.of("cpuBusyShare", "cpuStealShare", "generatorCores", "brokerCores");

    private static String csv(Double value) {
        return value == null ? "" : String.format(Locale.US, "%.3f", value);
    }

    private static Double round(Double value) {
        return value == null ? null : Math.round(value * 1000) / 1000.0;
    }
}
