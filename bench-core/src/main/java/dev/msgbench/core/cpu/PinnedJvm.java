package dev.msgbench.core.cpu;

/**
 * This JVM on the CPUs of a flag for as long as a command runs, then back where it was. The
 * way back matters when one JVM runs several commands (a workload file, a sweep, the tests):
 * the next one must not inherit this one's CPUs.
 */
public final class PinnedJvm implements AutoCloseable {

    private final CpuList before;
    private final String origin;

    private PinnedJvm(CpuList before, String origin) {
        this.before = before;
        this.origin = origin;
    }

    /**
     * Moves every thread of this JVM to {@code cpus}; see {@link CpuAffinity#pinThisJvm}.
     *
     * @param origin the flag that asked for it, for messages
     */
    public static PinnedJvm pin(CpuList cpus, String origin) {
        CpuList before = CpuAffinity.allowedForThisJvm();
        CpuAffinity.pinThisJvm(cpus, origin);
        return new PinnedJvm(before, origin);
    }

    /** The CPUs this JVM had before: where a broker goes when only our JVM is pinned. */
    public CpuList before() {
        return before;
    }

    /** Puts every thread back on the CPUs this JVM had before. */
    @Override
    public void close() {
        CpuAffinity.pinThisJvm(before, origin + " (restoring " + before + ")");
    }
}
