package dev.msgbench.cli.measure;

import dev.msgbench.cli.Converters;
import dev.msgbench.core.cpu.CpuList;
import picocli.CommandLine.Option;

/**
 * Which CPUs the local broker and our load generator run on. On a machine with few cores they
 * compete for them, and each one's wait for a core shows up as send delay and tail latency that
 * belong to neither; pinned apart, what remains is the system's.
 */
public final class PinningOptions {

    public static final String WHY = "On a machine with few cores the local broker and this load generator share them, "
            + "and each one's wait for a core shows up as send delay and tail latency that belong to neither. So the "
            + "producers spin only on cores the broker does not use (--spin-window auto), each run records how busy the "
            + "CPUs were and what each side used (intervals.csv, result.json's cpu), and a warning says when they "
            + "competed. Pinned apart (--broker-cpus 0 --cpus 1) each side has cores of its own, and fewer of them: "
            + "measure both ways (docs/usage.md, \"Small machines\").";
    public static final String BROKER_CPUS = "CPUs for every process of the local broker, in taskset's list syntax: 0, 0-1, "
            + "0,2 (default: this JVM's). Its children inherit them.";

    @Option(names = "--broker-cpus", paramLabel = "LIST", converter = Converters.Cpus.class, description = BROKER_CPUS)
    public CpuList brokerCpus;

    @Option(names = "--cpus", paramLabel = "LIST", converter = Converters.Cpus.class,
            description = "CPUs for this load generator's JVM, all its threads, for the run: 0, 0-1, 0,2 (default: "
                    + "wherever it was started). The local broker then keeps the CPUs this JVM had, unless "
                    + "--broker-cpus says otherwise.")
    public CpuList cpus;

    public boolean any() {
        return brokerCpus != null || cpus != null;
    }
}
