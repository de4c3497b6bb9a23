package dev.msgbench.core.cpu;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;

/**
 * This JVM on the CPUs of a setting for as long as a command runs, then back where it was. The
 * way back matters when one JVM runs several commands (a workload file, a sweep, the tests):
 * the next one must not inherit this one's CPUs.
 */
public final class PinnedJvm implements AutoCloseable {

    private final CpuList before;
    private final Setting origin;

    private PinnedJvm(CpuList before, Setting origin) {
        this.before = before;
        this.origin = origin;
    }

    /**
     * Moves every thread of this JVM to {@code cpus}; see {@link CpuAffinity#pinThisJvm}.
     *
     * @param origin the setting that asked for it, for messages
     */
    public static PinnedJvm pin(CpuList cpus, Setting origin) {
        CpuList before = CpuAffinity.allowedForThisJvm();
        CpuAffinity.pinThisJvm(cpus, Phrase.of("%s", origin));
        return new PinnedJvm(before, origin);
    }

    /** The CPUs this JVM had before: where a broker goes when only our JVM is pinned. */
    public CpuList before() {
        return before;
    }

    /** Puts every thread back on the CPUs this JVM had before. */
    @Override
    public void close() {
        CpuAffinity.pinThisJvm(before, Phrase.of("%s (restoring %s)", origin, before));
    }
}
