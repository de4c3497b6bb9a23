package dev.msgbench.nats;

import java.time.Duration;
import java.util.Objects;

import dev.msgbench.nats.broker.LocalNatsServer;

/**
 * How the JetStream adapter is configured for one run.
 *
 * @param url            servers, comma-separated
 * @param acks           "0": core publish, no PubAck awaited; "1" and "all": PubAck awaited
 * @param storage        the stream's storage
 * @param sync           the fsync setting asked of the local server (DEFAULT with --url)
 * @param replicas       the stream's replicas
 * @param consumer       push or pull delivery
 * @param maxPending     PubAcks awaited at once per producer; publish blocks beyond it
 * @param localServer    the local server, whose /jsz tells the sync setting in effect; null with --url
 * @param connectTimeout how long to try to reach the server before saying it is unreachable
 * @param requestTimeout how long a PubAck or an API call may take before it counts as failed
 */
public record JetStreamSettings(String url, String acks, JsStorage storage, JsSync sync, int replicas,
                                JsConsumerMode consumer, int maxPending, LocalNatsServer localServer,
                                Duration connectTimeout, Duration requestTimeout) {

    public static final String DEFAULT_ACKS = "1";
    public static final int DEFAULT_MAX_PENDING = 1000;
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

    public JetStreamSettings {
        Objects.requireNonNull(url, "url");
        acks = acks == null ? DEFAULT_ACKS : acks;
        if (!acks.equals("0") && !acks.equals("1") && !acks.equals("all")) {
            throw new IllegalArgumentException("acks must be 0, 1 or all: " + acks);
        }
        storage = storage == null ? JsStorage.FILE : storage;
        sync = sync == null ? JsSync.DEFAULT : sync;
        consumer = consumer == null ? JsConsumerMode.PUSH : consumer;
        if (replicas < 1 || maxPending < 1) {
            throw new IllegalArgumentException("replicas and maxPending must be at least 1");
        }
        connectTimeout = connectTimeout == null ? NatsSettings.DEFAULT_CONNECT_TIMEOUT : connectTimeout;
        requestTimeout = requestTimeout == null ? DEFAULT_REQUEST_TIMEOUT : requestTimeout;
    }

    /** Acks 1, file storage, the server's sync, one replica, push, 1000 pending. */
    public static JetStreamSettings defaults(String url) {
        return new JetStreamSettings(url, DEFAULT_ACKS, JsStorage.FILE, JsSync.DEFAULT, 1, JsConsumerMode.PUSH,
                DEFAULT_MAX_PENDING, null, null, null);
    }

    public JetStreamSettings withAcks(String a) {
        return new JetStreamSettings(url, a, storage, sync, replicas, consumer, maxPending, localServer, connectTimeout, requestTimeout);
    }

    public JetStreamSettings withStorage(JsStorage s) {
        return new JetStreamSettings(url, acks, s, sync, replicas, consumer, maxPending, localServer, connectTimeout, requestTimeout);
    }

    public JetStreamSettings withSync(JsSync s) {
        return new JetStreamSettings(url, acks, storage, s, replicas, consumer, maxPending, localServer, connectTimeout, requestTimeout);
    }

    public JetStreamSettings withReplicas(int r) {
        return new JetStreamSettings(url, acks, storage, sync, r, consumer, maxPending, localServer, connectTimeout, requestTimeout);
    }

    public JetStreamSettings withConsumer(JsConsumerMode c) {
        return new JetStreamSettings(url, acks, storage, sync, replicas, c, maxPending, localServer, connectTimeout, requestTimeout);
    }

    public JetStreamSettings withMaxPending(int m) {
        return new JetStreamSettings(url, acks, storage, sync, replicas, consumer, m, localServer, connectTimeout, requestTimeout);
    }

    public JetStreamSettings withLocalServer(LocalNatsServer server) {
        return new JetStreamSettings(url, acks, storage, sync, replicas, consumer, maxPending, server, connectTimeout, requestTimeout);
    }
}
