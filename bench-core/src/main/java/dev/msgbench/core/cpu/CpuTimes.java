package dev.msgbench.core.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The machine's CPU time so far, per CPU, as {@code /proc/stat} counts it: in the kernel's clock
 * ticks (USER_HZ, {@link #TICKS_PER_SECOND}), since boot. Two of them, taken a second apart, say
 * how busy each CPU was in that second.
 *
 * @param cpus          one entry per CPU the kernel lists (online CPUs), in its order
 * @param stealReported whether the lines carry a steal column: a hypervisor's share of a virtual
 *                      CPU, taken while the guest wanted it. Linux has had the column since 2.6.11,
 *                      but a container's {@code /proc} may be a filtered copy without it.
 */
public record CpuTimes(List<Cpu> cpus, boolean stealReported) {

    /**
     * USER_HZ: what {@code /proc} counts CPU time in. Fixed at 100 on every architecture Linux
     * builds for today (the kernel converts its own HZ to it for user space), and Java cannot ask
     * sysconf(_SC_CLK_TCK).
     */
    public static final int TICKS_PER_SECOND = 100;

    /** What a machine without {@code /proc/stat} (not Linux) reports: nothing. */
    public static final CpuTimes NONE = new CpuTimes(List.of(), false);

    private static final Path PROC_STAT = Path.of("/proc/stat");

    /**
     * One CPU's ticks since boot. Not its busy ticks: the kernel counts busy time by sampling at its
     * timer ticks, which the short bursts of a messaging run escape; {@link CpuUsage#between} takes
     * busy time as the wall time not idle.
     *
     * @param idleTicks      idle, including iowait (a CPU waiting for a disk could run something else)
     * @param stealTicks     taken by the hypervisor while this virtual CPU wanted to run; 0 where not reported
     * @param interruptTicks in irq and softirq: loopback traffic is mostly
     *                       softirq, which a kernel without IRQ time accounting charges to no process
     *                       when it interrupts an idle CPU
     */
    public record Cpu(int number, long idleTicks, long stealTicks, long interruptTicks) {
    }

    public CpuTimes {
        cpus = List.copyOf(cpus);
    }

    /** This machine's, now; {@link #NONE} where {@code /proc/stat} cannot be read. */
    public static CpuTimes read() {
        try {
            return parse(Files.readString(PROC_STAT, StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return NONE;
        }
    }

    /**
     * The {@code cpuN} lines of {@code /proc/stat}: {@code cpuN user nice system idle iowait irq
     * softirq steal guest guest_nice}, of which lines before 2.6.11 lack steal and later ones.
     *
     * @throws IllegalArgumentException for a {@code cpuN} line with fewer than four numbers
     */
    public static CpuTimes parse(String procStat) {
        List<Cpu> cpus = new ArrayList<>();
        boolean steal = true;
        for (String line : procStat.split("\n")) {
            if (!line.startsWith("cpu") || line.length() < 4 || !Character.isDigit(line.charAt(3))) {
                continue;
            }
            String[] f = line.trim().split("\\s+");
            if (f.length < 5) {
                throw new IllegalArgumentException("a /proc/stat line with fewer than four times: " + line);
            }
            long idle = at(f, 4) + at(f, 5);
            steal &= f.length > 8;
            cpus.add(new Cpu(Integer.parseInt(f[0].substring(3)), idle, at(f, 8), at(f, 6) + at(f, 7)));
        }
        return new CpuTimes(cpus, steal && !cpus.isEmpty());
    }

    private static long at(String[] fields, int index) {
        return index < fields.length ? Long.parseLong(fields[index]) : 0;
    }

    /** One CPU by its number, or null when the kernel did not list it. */
    public Cpu cpu(int number) {
        for (Cpu cpu : cpus) {
            if (cpu.number() == number) {
                return cpu;
            }
        }
        return null;
    }
}
