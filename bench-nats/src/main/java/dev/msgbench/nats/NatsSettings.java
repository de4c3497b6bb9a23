package dev.msgbench.nats;

import java.time.Duration;
import java.util.Objects;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.security.ClientSecurity;

/**
 * How the core NATS adapter is configured for one run.
 *
 * @param url            servers, comma-separated
 * @param pattern        publish/subscribe or request/reply
 * @param connectTimeout how long to try to reach the server before saying it is unreachable
 * @param probeTimeout   how long a producer may wait for its first probe to come through
 * @param publisherClient what producers publish with, and in publish/subscribe consumers receive with: jnats, or
 *                        the suite's own protocol client
 * @param auth           TLS and the login of every connection
 * @param startedBySuite whether the suite started the server: one that does not answer is then no fault of --url
 */
public record NatsSettings(String url, NatsPattern pattern, Duration connectTimeout, Duration probeTimeout,
                           NatsClient publisherClient, NatsAuth auth, boolean startedBySuite) {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /**
     * For a server the suite started and found ready: it answers, so the bound only matters where the
     * machine is so busy that the client's handshake waits for a core (a load generator pinned to a
     * CPU the other processes crowd took more than 5 s), and a run should then wait, not fail.
     */
    public static final Duration LOCAL_CONNECT_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_PROBE_TIMEOUT = Duration.ofSeconds(10);
    /** Core NATS acknowledges nothing: 0 is its only --acks, and its default. */
    public static final Acks ACKS = Acks.NONE;

    public NatsSettings {
        Objects.requireNonNull(url, "url");
        pattern = pattern == null ? NatsPattern.PUBSUB : pattern;
        connectTimeout = connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout;
        probeTimeout = probeTimeout == null ? DEFAULT_PROBE_TIMEOUT : probeTimeout;
        publisherClient = publisherClient == null ? NatsClient.JNATS : publisherClient;
        auth = auth == null ? NatsAuth.NONE : auth;
        if (publisherClient == NatsClient.DIRECT && auth.secured()) {
            throw new UserError("--nats-client direct speaks plain nats:// without a login (but for one in the URL); "
                    + "use --nats-client jnats for TLS, --user, tokens, NKeys and credentials files");
        }
    }

    public static NatsSettings defaults(String url) {
        return new NatsSettings(url, NatsPattern.PUBSUB, DEFAULT_CONNECT_TIMEOUT, DEFAULT_PROBE_TIMEOUT, NatsClient.JNATS,
                NatsAuth.NONE, false);
    }

    public NatsSettings withPattern(NatsPattern p) {
        return new NatsSettings(url, p, connectTimeout, probeTimeout, publisherClient, auth, startedBySuite);
    }

    public NatsSettings withPublisherClient(NatsClient c) {
        return new NatsSettings(url, pattern, connectTimeout, probeTimeout, c, auth, startedBySuite);
    }

    public NatsSettings withConnectTimeout(Duration t) {
        return new NatsSettings(url, pattern, t, probeTimeout, publisherClient, auth, startedBySuite);
    }

    public NatsSettings withStartedBySuite(boolean started) {
        return new NatsSettings(url, pattern, connectTimeout, probeTimeout, publisherClient, auth, started);
    }

    public NatsSettings withAuth(NatsAuth a) {
        return new NatsSettings(url, pattern, connectTimeout, probeTimeout, publisherClient, a, startedBySuite);
    }

    /** TLS and a user/password or token, keeping an NKey or credentials file already set. */
    public NatsSettings withSecurity(ClientSecurity security) {
        return withAuth(auth.withSecurity(security));
    }

    /** Refuses an --acks core NATS cannot keep; null (the default) and 0 pass. */
    public static void checkAcks(Acks acks) {
        if (acks != null && acks != ACKS) {
            throw new UserError("--acks " + acks.flagValue() + " is not available for core NATS: it never acknowledges "
                    + "a message (at-most-once); use --acks 0, or --system jetstream for stored, acknowledged messages");
        }
    }
}
