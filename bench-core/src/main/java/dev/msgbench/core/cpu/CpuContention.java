package dev.msgbench.core.cpu;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.SettingNames;

/**
 * Whether a run measured the system or the machine: over its measured window, did the load
 * generator and the local broker compete for cores, did the producers spin on cores the broker
 * needed, did other processes or the hypervisor take the CPUs.
 *
 * @param usage             the measured window's CPU use
 * @param placement         the CPUs each side may run on
 * @param contendedSeconds  the measured seconds in which the two kept the CPUs they share 90% busy
 * @param generatorWarnings what the load generator did to the measurement: the result's
 *                          {@code bottleneckSuspected}
 * @param machineWarnings   what others did to it: other processes, the hypervisor
 */
public record CpuContention(CpuUsage usage, CpuPlacement placement, int contendedSeconds,
                            List<String> generatorWarnings, List<String> machineWarnings) {

    /** CPUs busier than this leave a thread that becomes runnable waiting for one, now and then for a scheduler tick. */
    public static final double BUSY_SHARE = 0.9;
    /** Seconds of contention that make a window contended though its mean is not: enough to move its p99. */
    public static final double CONTENDED_SECONDS_SHARE = 0.05;
    /** Spinning below this (a low rate's sends, the monitor's own waits) takes nothing anyone needs. */
    public static final double SPINNING_CORES = 0.1;
    /** What other processes may use before they are named: a shell, a terminal, the kernel's threads. */
    public static final double OTHERS_CORES = 0.25;
    /** Steal above this share of the CPUs' time is the hypervisor's doing, not noise. */
    public static final double STEAL_SHARE = 0.05;
    /** How each warning about the load generator begins. */
    public static final String CONTENTION = "cpu contention: ";
    /** How each warning about others on the machine begins. */
    public static final String BUSY_MACHINE = "busy machine: ";

    public CpuContention {
        generatorWarnings = List.copyOf(generatorWarnings);
        machineWarnings = List.copyOf(machineWarnings);
    }

    /**
     * @param usage           the measured window as a whole
     * @param seconds         its intervals, one by one (a warm-up too short for two JVMs' compilers
     *                        shows as a few saturated seconds in a window whose mean is not)
     * @param spinWindowNanos the producers' spin window, named in the warning about spinning
     * @param names           how the warnings name the settings that would pin or spin differently
     */
    public static CpuContention judge(CpuUsage usage, List<CpuUsage> seconds, CpuPlacement placement,
                                      long spinWindowNanos, SettingNames names) {
        List<String> generator = new ArrayList<>();
        List<String> machine = new ArrayList<>();
        CpuList shared = placement.shared();
        CpuList both = placement.both();
        int contended = 0;
        if (shared != null && usage.brokerCores() != null) {
            double together = together(usage, both);
            double most = 0;
            for (CpuUsage second : seconds) {
                if (second.brokerCores() != null) {
                    most = Math.max(most, together(second, both));
                    contended += together(second, both) >= BUSY_SHARE ? 1 : 0;
                }
            }
            Double cpusBusy = usage.busyShareOf(both);
            if (together >= BUSY_SHARE) {
                generator.add(Phrase.of("%sthe load generator and the broker shared CPUs %s and kept them "
                                + "%.0f%% busy (load generator %.2f cores, broker %.2f): latency includes each one's waits "
                                + "for a core; pin them apart (%s, %s) and compare", CONTENTION, both,
                        100 * Math.min(1, together), usage.generatorCores(), usage.brokerCores(), Setting.BROKER_CPUS,
                        Setting.CPUS).render(names));
            } else if (cpusBusy != null && cpusBusy >= BUSY_SHARE && usage.generatorCores() >= SPINNING_CORES) {
                // other processes filled what the two left of their CPUs: each still waited for a core there, and
                // the load generator took its part of a CPU the broker needed
                generator.add(Phrase.of("%sthe load generator and the broker shared CPUs %s, which were %.0f%% busy "
                                + "(load generator %.2f cores, broker %.2f, other processes the rest): latency includes each "
                                + "one's waits for a core; pin them apart (%s, %s) and compare", CONTENTION, both,
                        100 * Math.min(1, cpusBusy), usage.generatorCores(), usage.brokerCores(), Setting.BROKER_CPUS,
                        Setting.CPUS).render(names));
            } else if (contended > 0 && contended >= CONTENDED_SECONDS_SHARE * seconds.size()) {
                generator.add(Phrase.of("%sthe load generator and the broker shared CPUs %s and kept them "
                                + "90%% busy or more in %d of %d measured seconds (%.0f%% at most; %.0f%% over the window: load "
                                + "generator %.2f cores, broker %.2f): latency in those seconds includes each one's waits for "
                                + "a core; warm up longer, or pin them apart (%s, %s) and compare", CONTENTION,
                        both, contended, seconds.size(), 100 * Math.min(1, most), 100 * together, usage.generatorCores(),
                        usage.brokerCores(), Setting.BROKER_CPUS, Setting.CPUS).render(names));
            }
            if (usage.spinningCores() >= SPINNING_CORES) {
                // not only when the CPUs were all busy: a thread the broker wakes on the core a producer spins on
                // waits for that producer's yield, whatever the other cores do
                Double busy = cpusBusy;
                generator.add(Phrase.of("%sthe producers spun %.2f cores (%s %s) on CPUs the broker runs on (%s)%s: "
                                + "the broker waited for the cores they held; give %s 0 (or auto), or pin them apart",
                        CONTENTION, usage.spinningCores(), Setting.SPIN_WINDOW, micros(spinWindowNanos), shared,
                        busy == null ? "" : String.format(Locale.US, ", %.0f%% busy", 100 * busy), Setting.SPIN_WINDOW)
                        .render(names));
            }
        }
        if (usage.busyShare() != null && usage.busyShare() >= BUSY_SHARE && usage.othersCores() >= OTHERS_CORES) {
            machine.add(String.format(Locale.US, "%sother processes used %.2f cores and the machine's %d CPUs were %.0f%% "
                            + "busy: latency includes waits for a core", BUSY_MACHINE, usage.othersCores(),
                    usage.machineCores(), 100 * usage.busyShare()));
        }
        if (usage.stealShare() != null && usage.stealShare() >= STEAL_SHARE) {
            machine.add(String.format(Locale.US, "%sthe hypervisor took %.0f%% of the CPUs' time (steal): latency "
                    + "includes it", BUSY_MACHINE, 100 * usage.stealShare()));
        }
        return new CpuContention(usage, placement, contended, generator, machine);
    }

    /** The load generator's and the broker's cores together, as a share of the CPUs either may use. */
    private static double together(CpuUsage usage, CpuList both) {
        return (usage.generatorCores() + usage.brokerCores()) / both.size();
    }

    /** The load generator disturbed what it measured: it competed with the broker for cores. */
    public boolean generatorDisturbed() {
        return !generatorWarnings.isEmpty();
    }

    /** Every warning, the load generator's first. */
    public List<String> warnings() {
        List<String> all = new ArrayList<>(generatorWarnings);
        all.addAll(machineWarnings);
        return all;
    }

    /** result.json's {@code cpu}: the measured window's use, each side's CPUs, and whether they shared any. */
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("summary", usage.line());
        d.putAll(usage.describe());
        d.put("loadGeneratorCpus", placement.generator().toString());
        d.put("brokerCpus", placement.broker() == null ? null : placement.broker().toString());
        d.put("sharedCpus", placement.shared() == null ? null : placement.shared().toString());
        d.put("contendedSeconds", contendedSeconds);
        d.put("contention", generatorDisturbed());
        d.put("busyMachine", !machineWarnings.isEmpty());
        return d;
    }

    /**
     * One cell for a table of runs (sweep, tune, report), from result.json's {@code cpu}: the
     * machine's busy share over the measured window, and the verdicts: {@code 54%}, {@code 97%
     * contention}, {@code 95% busy machine}; {@code -} where nothing was watched.
     */
    public static String brief(Map<String, Object> described) {
        if (described == null || !(described.get("machine") instanceof Map<?, ?> machine)
                || !(machine.get("busyShare") instanceof Number busy)) {
            return "-";
        }
        StringBuilder cell = new StringBuilder(String.format(Locale.US, "%.0f%%", 100 * busy.doubleValue()));
        List<String> verdicts = new ArrayList<>();
        if (Boolean.TRUE.equals(described.get("contention"))) {
            verdicts.add("contention");
        }
        if (Boolean.TRUE.equals(described.get("busyMachine"))) {
            verdicts.add("busy machine");
        }
        if (!verdicts.isEmpty()) {
            cell.append(' ').append(String.join(", ", verdicts));
        }
        return cell.toString();
    }

    /** What {@link #brief} says when a run's verdicts mean the machine, not the system, was measured. */
    public static boolean disturbed(Map<String, Object> described) {
        return described != null && (Boolean.TRUE.equals(described.get("contention"))
                || Boolean.TRUE.equals(described.get("busyMachine")));
    }

    private static String micros(long nanos) {
        return nanos % 1000 == 0 ? nanos / 1000 + "us" : String.format(Locale.US, "%.3fus", nanos / 1e3);
    }
}
