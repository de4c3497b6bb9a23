package dev.msgbench.redis;

import java.time.Duration;

import dev.msgbench.core.UserError;

/**
 * How the Redis Streams adapter writes and reads its streams.
 *
 * @param maxlen    XADD ... MAXLEN ~ maxlen: each stream keeps about this many entries, read or
 *                  not, so that nothing grows without bound. An entry trimmed before its consumer
 *                  read it is lost, and counted so.
 * @param readCount XREADGROUP COUNT: at most this many entries per read
 * @param block     XREADGROUP BLOCK: how long a read waits for the first entry; a read returns at
 *                  once when entries arrive, so this bounds only how fast a consumer notices close
 */
public record StreamSettings(long maxlen, int readCount, Duration block) {

    public static final long DEFAULT_MAXLEN = 100_000;
    public static final int DEFAULT_READ_COUNT = 100;
    public static final Duration DEFAULT_BLOCK = Duration.ofMillis(100);

    public StreamSettings {
        if (maxlen < 1) {
            throw new UserError("--maxlen must be at least 1, got " + maxlen);
        }
        if (readCount < 1) {
            throw new UserError("--xread-count must be at least 1, got " + readCount);
        }
        block = block == null ? DEFAULT_BLOCK : block;
        if (block.toMillis() < 1) {
            throw new IllegalArgumentException("block must be at least 1 ms, got " + block);
        }
    }

    public static StreamSettings defaults() {
        return new StreamSettings(DEFAULT_MAXLEN, DEFAULT_READ_COUNT, DEFAULT_BLOCK);
    }
}
