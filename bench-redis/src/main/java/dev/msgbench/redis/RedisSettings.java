package dev.msgbench.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * How a Redis adapter connects, for one run.
 *
 * @param url            host:port or redis://host:port (the --url flag)
 * @param acks           what a publish waits for
 * @param connectTimeout how long to try to reach the server before telling the user
 * @param waitTimeout    with {@link RedisAcks#REPLICAS}: the WAIT timeout, after which a message
 *                       that fewer replicas acknowledged counts as a failed send
 * @param maxInFlight    commands a publisher may have awaiting replies before publish blocks, so
 *                       that a stalled server shows as send delay rather than as memory growth
 */
public record RedisSettings(String url, RedisAcks acks, Duration connectTimeout, Duration waitTimeout,
                            int maxInFlight) {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofSeconds(5);
    public static final int DEFAULT_MAX_IN_FLIGHT = 100_000;

    public RedisSettings {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(acks, "acks");
        connectTimeout = connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout;
        waitTimeout = waitTimeout == null ? DEFAULT_WAIT_TIMEOUT : waitTimeout;
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1, got " + maxInFlight);
        }
    }

    /** Acks 1, 5 s to connect, 5 s WAIT timeout. */
    public static RedisSettings defaults(String url) {
        return new RedisSettings(url, RedisAcks.SERVER, null, null, DEFAULT_MAX_IN_FLIGHT);
    }

    public RedisSettings withAcks(RedisAcks acks) {
        return new RedisSettings(url, acks, connectTimeout, waitTimeout, maxInFlight);
    }
}
