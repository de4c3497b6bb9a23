package dev.msgbench.redis;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

import dev.msgbench.core.security.ClientSecurity;

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
 * @param client         what producers (and pub/sub subscribers) use: lettuce, or the suite's own RESP client
 * @param serverExit     how the local server at {@code url} ended ("node 1 killed by signal 9 (SIGKILL)"), or
 *                       null while it runs or when it is not the suite's: named when a client loses its
 *                       connection, instead of a guessed cause
 * @param reconnectFor   how long a lettuce consumer that lost its connection may take to have it
 *                       back before the run fails (null for {@link #DEFAULT_RECONNECT_FOR})
 * @param security       TLS (as rediss:// in the URL asks too) and a login, which wins over one in the URL;
 *                       null for none beyond the URL's
 */
public record RedisSettings(String url, RedisAcks acks, Duration connectTimeout, Duration waitTimeout,
                            int maxInFlight, RedisClientKind client, Supplier<String> serverExit,
                            Duration reconnectFor, ClientSecurity security) {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofSeconds(5);
    /**
     * Far more than one connection needs to keep the server busy (redis-benchmark's pipelining
     * keeps 16 commands in flight; 4,096 over a 1 ms round trip are 4 million a second), and few
     * enough to stay cheap: each command awaiting its reply is live in lettuce's hash-indexed
     * reply queue and for the garbage collector. Measured here with {@code throughput} (500,000 messages
     * of 100 B, 1 consumer, 2 cores): 100,000 in flight gave 0.5 s of GC pauses and 90k msg/s,
     * 4,096 gave 0.12 s and 140k msg/s.
     */
    public static final int DEFAULT_MAX_IN_FLIGHT = 4_096;
    /** As long as the run's --fault-timeout waits by default for a system to deliver again. */
    public static final Duration DEFAULT_RECONNECT_FOR = Duration.ofSeconds(60);

    public RedisSettings {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(acks, "acks");
        connectTimeout = connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout;
        waitTimeout = waitTimeout == null ? DEFAULT_WAIT_TIMEOUT : waitTimeout;
        client = client == null ? RedisClientKind.LETTUCE : client;
        serverExit = serverExit == null ? () -> null : serverExit;
        reconnectFor = reconnectFor == null ? DEFAULT_RECONNECT_FOR : reconnectFor;
        security = security == null ? ClientSecurity.NONE : security;
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1, got " + maxInFlight);
        }
    }

    /** A server that is not the suite's, or whose end is not watched. */
    public RedisSettings(String url, RedisAcks acks, Duration connectTimeout, Duration waitTimeout, int maxInFlight,
                         RedisClientKind client) {
        this(url, acks, connectTimeout, waitTimeout, maxInFlight, client, null, null, null);
    }

    /** Acks 1, 5 s to connect, 5 s WAIT timeout. */
    public static RedisSettings defaults(String url) {
        return new RedisSettings(url, RedisAcks.DEFAULT, null, null, DEFAULT_MAX_IN_FLIGHT, RedisClientKind.LETTUCE);
    }

    public RedisSettings withAcks(RedisAcks acks) {
        return new RedisSettings(url, acks, connectTimeout, waitTimeout, maxInFlight, client, serverExit, reconnectFor, security);
    }

    public RedisSettings withClient(RedisClientKind client) {
        return new RedisSettings(url, acks, connectTimeout, waitTimeout, maxInFlight, client, serverExit, reconnectFor, security);
    }

    /** @param serverExit see the record's parameter; the command line gives the local broker's node 1 */
    public RedisSettings withServerExit(Supplier<String> serverExit) {
        return new RedisSettings(url, acks, connectTimeout, waitTimeout, maxInFlight, client, serverExit, reconnectFor, security);
    }

    public RedisSettings withReconnectFor(Duration reconnectFor) {
        return new RedisSettings(url, acks, connectTimeout, waitTimeout, maxInFlight, client, serverExit, reconnectFor, security);
    }

    public RedisSettings withSecurity(ClientSecurity security) {
        return new RedisSettings(url, acks, connectTimeout, waitTimeout, maxInFlight, client, serverExit, reconnectFor, security);
    }

    /**
     * Why a subscriber's connection was lost, as far as the suite can tell: the server's end when
     * it is the suite's and has ended, else what Redis does to subscribers that fall behind.
     *
     * @param outputLimit the server's client-output-buffer-limit
     */
    public String lostConnectionCause(String outputLimit) {
        String exit = serverExit.get();
        return exit != null ? "the server went away: redis-server " + exit
                : "Redis disconnects subscribers that fall behind by more than client-output-buffer-limit pubsub "
                        + outputLimit;
    }
}
