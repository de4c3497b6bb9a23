package dev.msgbench.nats;

import java.time.Duration;
import java.util.Objects;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.security.ClientSecurity;

/**
 * How the JetStream adapter is configured for one run.
 *
 * @param url            servers, comma-separated
 * @param acks           0: core publish, no PubAck awaited; 1 and all: PubAck awaited; null for
 *                       {@link #DEFAULT_ACKS}
 * @param storage        the stream's storage
 * @param sync           the fsync setting asked of the local server (DEFAULT with --url)
 * @param replicas       the stream's replicas
 * @param consumer       push or pull delivery
 * @param maxPending     PubAcks awaited at once per producer; publish blocks beyond it
 * @param connectTimeout how long to try to reach the server before saying it is unreachable
 * @param requestTimeout how long a PubAck or an API call may take before it counts as failed
 * @param auth           TLS and the login of every connection
 * @param startedBySuite whether the suite started the server: one that does not answer is then no fault of --url
 */
public record JetStreamSettings(String url, Acks acks, JsStorage storage, JsSync sync, int replicas,
                                JsConsumerMode consumer, int maxPending, Duration connectTimeout,
                                Duration requestTimeout, NatsAuth auth, boolean startedBySuite) {

    /** A JetStream publish awaits its PubAck unless told otherwise. */
    public static final Acks DEFAULT_ACKS = Acks.BROKER;
    public static final int DEFAULT_MAX_PENDING = 1000;
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

    public JetStreamSettings {
        Objects.requireNonNull(url, "url");
        acks = acks == null ? DEFAULT_ACKS : acks;
        storage = storage == null ? JsStorage.FILE : storage;
        sync = sync == null ? JsSync.DEFAULT : sync;
        consumer = consumer == null ? JsConsumerMode.PUSH : consumer;
        if (replicas < 1 || maxPending < 1) {
            throw new IllegalArgumentException("replicas and maxPending must be at least 1");
        }
        connectTimeout = connectTimeout == null ? NatsSettings.DEFAULT_CONNECT_TIMEOUT : connectTimeout;
        requestTimeout = requestTimeout == null ? DEFAULT_REQUEST_TIMEOUT : requestTimeout;
        auth = auth == null ? NatsAuth.NONE : auth;
    }

    /** Acks 1, file storage, the server's sync, one replica, push, 1000 pending. */
    public static JetStreamSettings defaults(String url) {
        return new JetStreamSettings(url, DEFAULT_ACKS, JsStorage.FILE, JsSync.DEFAULT, 1, JsConsumerMode.PUSH,
                DEFAULT_MAX_PENDING, null, null, NatsAuth.NONE, false);
    }

    /**
     * Refuses --acks all on a stream of one replica: JetStream's PubAck would mean what it means
     * with --acks 1. (With several, the PubAck comes from a RAFT quorum: a majority, not every
     * replica, which is what "all" can mean in JetStream.)
     *
     * @param acks        --acks, or null for the default
     * @param replicas    the stream's replicas
     * @param localBroker whether the suite starts the server (the message then says --brokers)
     */
    public static void checkAcks(Acks acks, int replicas, boolean localBroker) {
        if (acks == Acks.ALL && replicas == 1) {
            throw new UserError("--acks all waits for replicas, but the stream has 1 (--js-replicas 1), so it would "
                    + "mean the same as --acks 1; use --acks 1, or a replicated stream (--js-replicas 3, with "
                    + (localBroker ? "--brokers 3 for a local cluster)" : "a cluster at --url)"));
        }
    }

    /** Whether a publish awaits its PubAck; without, it is a core publish into the stream's subject. */
    public boolean awaitsPubAck() {
        return acks != Acks.NONE;
    }

    public JetStreamSettings withAcks(Acks a) {
        return new JetStreamSettings(url, a, storage, sync, replicas, consumer, maxPending, connectTimeout, requestTimeout, auth,
                startedBySuite);
    }

    public JetStreamSettings withStorage(JsStorage s) {
        return new JetStreamSettings(url, acks, s, sync, replicas, consumer, maxPending, connectTimeout, requestTimeout, auth,
                startedBySuite);
    }

    public JetStreamSettings withSync(JsSync s) {
        return new JetStreamSettings(url, acks, storage, s, replicas, consumer, maxPending, connectTimeout, requestTimeout, auth,
                startedBySuite);
    }

    public JetStreamSettings withReplicas(int r) {
        return new JetStreamSettings(url, acks, storage, sync, r, consumer, maxPending, connectTimeout, requestTimeout, auth,
                startedBySuite);
    }

    public JetStreamSettings withConsumer(JsConsumerMode c) {
        return new JetStreamSettings(url, acks, storage, sync, replicas, c, maxPending, connectTimeout, requestTimeout, auth,
                startedBySuite);
    }

    public JetStreamSettings withMaxPending(int m) {
        return new JetStreamSettings(url, acks, storage, sync, replicas, consumer, m, connectTimeout, requestTimeout, auth,
                startedBySuite);
    }

    public JetStreamSettings withConnectTimeout(Duration t) {
        return new JetStreamSettings(url, acks, storage, sync, replicas, consumer, maxPending, t, requestTimeout, auth,
                startedBySuite);
    }

    public JetStreamSettings withStartedBySuite(boolean started) {
        return new JetStreamSettings(url, acks, storage, sync, replicas, consumer, maxPending, connectTimeout, requestTimeout, auth,
                started);
    }

    public JetStreamSettings withAuth(NatsAuth a) {
        return new JetStreamSettings(url, acks, storage, sync, replicas, consumer, maxPending, connectTimeout, requestTimeout, a,
                startedBySuite);
    }

    /** TLS and a user/password or token, keeping an NKey or credentials file already set. */
    public JetStreamSettings withSecurity(ClientSecurity security) {
        return withAuth(auth.withSecurity(security));
    }
}
