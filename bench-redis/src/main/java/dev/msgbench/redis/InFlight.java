package dev.msgbench.redis;

import java.util.concurrent.Semaphore;

/**
 * Bounds the commands a publisher has sent without a reply. Lettuce queues without limit; when the
 * server stalls (SIGSTOP, a slow fsync) publish then blocks here, which the core measures as send
 * delay, instead of the queue growing until the JVM runs out of memory.
 */
final class InFlight {

    /** Large messages are bounded by bytes too: 4,096 messages of 1 MiB would be 4 GiB awaiting replies. */
    static final long MAX_BYTES = 256L * 1024 * 1024;

    private final Semaphore permits;

    InFlight(int maxMessages, int messageSizeBytes) {
        this(limit(maxMessages, messageSizeBytes));
    }

    /** Exactly {@code permits}: a stream's {@link #shareOf} its connection's limit. */
    InFlight(int permits) {
        this.permits = new Semaphore(permits);
    }

    /**
     * A stream's share of {@code limit} when {@code streams} share a connection: what awaits replies
     * on the connection stays within about the limit, and a stream's ring of awaiting messages (the
     * direct client's) stays small however many streams there are (OMB's runs have thousands).
     */
    static int shareOf(int limit, int streams) {
        return Math.max(1, limit / streams);
    }

    /** A stream's share of the limit of {@code maxMessages} (and of bytes) when {@code streams} share its connection. */
    static int shareOnConnection(int maxMessages, int messageSizeBytes, int streams) {
        return shareOf(limit(maxMessages, messageSizeBytes), streams);
    }

    static int limit(int maxMessages, int messageSizeBytes) {
        return (int) Math.max(1, Math.min(maxMessages, MAX_BYTES / Math.max(1, messageSizeBytes)));
    }

    /** A permit if one is free now; false instead of blocking. */
    boolean tryAcquire() {
        return permits.tryAcquire();
    }

    void acquire() throws InterruptedException {
        permits.acquire();
    }

    void release() {
        permits.release();
    }
}
