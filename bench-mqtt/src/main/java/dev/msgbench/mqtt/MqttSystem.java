package dev.msgbench.mqtt;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.echo.CloseAll;
import dev.msgbench.core.payload.RecordKeys;

/**
 * MQTT 3.1.1 with Eclipse Paho: a client per producer stream and per subscriber, the run's topics
 * as MQTT topics, every subscriber of a topic receiving all of it (fan-out), the same QoS for
 * publishing and subscribing, retained messages off.
 *
 * <p>With persistent sessions and QoS 1 or 2, the broker queues messages for a subscriber that is
 * not connected, once its session has subscribed: {@link #prepare} makes each subscriber's session
 * (connect, subscribe, disconnect), so that messages published before the subscriber connects
 * (--backlog) wait for it. {@link #close} ends every session the run made, so that a broker given
 * with --url keeps none.
 */
public final class MqttSystem implements MessagingSystem {

    public static final String NAME = "mqtt";
    /** What Mosquitto cannot be asked: the result says where its figures come from. */
    static final String WRITTEN_CONFIG = "the mosquitto.conf the suite wrote (Mosquitto reports no setting)";
    private static final String UNKNOWN = "unknown: a broker given with --url cannot be asked its configuration";
    /** Bytes a publisher may have in flight, as the other adapters bound theirs. */
    private static final long IN_FLIGHT_BYTES = 64L * 1024 * 1024;
    private static final int MAX_IN_FLIGHT = 1000;
    /**
     * Mosquitto's max_inflight_messages by default. It bounds a client's incoming QoS 2 messages
     * awaiting PUBREL too, and Mosquitto 2.0.11 drops a v3.1.1 client that sends more ("Bad socket
     * read/write ... Unknown error" in its log, the publisher's "Connection lost"), so a QoS 2
     * publisher keeps within it.
     */
    static final int MOSQUITTO_INFLIGHT = 20;

    private final MqttSettings settings;
    private RunPlan plan;
    private RecordKeys keys = RecordKeys.NONE;
    private MqttTopics topics;
    private int maxInFlight;
    /** The persistent sessions the run made, each with the settings of the node it lives on. */
    private final Map<String, MqttSettings> sessions = new LinkedHashMap<>();

    public MqttSystem(MqttSettings settings) {
        this.settings = settings;
    }

    @Override
    public void prepare(RunPlan runPlan) throws Exception {
        if (runPlan.consumers() > 0 && runPlan.consumersPerSubscription() > 1) {
            throw new UserError("mqtt: MQTT 3.1.1 has no shared subscriptions, every subscriber of a topic receives "
                    + "all of it, so " + runPlan.consumersPerSubscription() + " consumers per subscription would each "
                    + "receive every message; use one consumer per topic and subscription (--consumers = --topics x "
                    + "--subscriptions-per-topic)");
        }
        this.plan = runPlan;
        this.topics = new MqttTopics(runPlan, keys);
        this.maxInFlight = (int) Math.max(1, Math.min(MAX_IN_FLIGHT, IN_FLIGHT_BYTES / runPlan.messageSizeBytes()));
        if (settings.qos() == 2) {
            maxInFlight = Math.min(maxInFlight, brokerInflight());
        }
        // checks the connection before the run, as every adapter's prepare does
        MqttClients.close(MqttClients.connect(settings.onNode(0), runPlan.runId() + "-check", MqttSession.CLEAN, 1));
        if (settings.queuesForAbsentSubscribers()) {
            for (int i = 0; i < runPlan.consumers(); i++) {
                MqttAsyncClient client = client(consumerId(i), consumerSettings(i));
                try {
                    client.subscribe(topics.filterOf(i), settings.qos()).waitForCompletion(MqttClients.TIMEOUT_MILLIS);
                } finally {
                    MqttClients.close(client);
                }
            }
        }
    }

    /** The broker's max_inflight_messages as the suite wrote it, else Mosquitto's default; 0 is no limit. */
    private int brokerInflight() {
        String written = settings.writtenConfig() == null ? null : settings.writtenConfig().get("max_inflight_messages");
        if (written == null) {
            return MOSQUITTO_INFLIGHT;
        }
        try {
            int value = Integer.parseInt(written.strip());
            return value <= 0 ? MAX_IN_FLIGHT : value;
        } catch (NumberFormatException e) {
            return MOSQUITTO_INFLIGHT;
        }
    }

    /** Each key is a topic level under the stream's topic, which subscribers read with {@code +}. */
    @Override
    public String useKeys(RecordKeys recordKeys) {
        this.keys = recordKeys;
        return null;
    }

    @Override
    public Subscriber subscribe(int index, MessageSink sink) throws Exception {
        MqttSettings node = consumerSettings(index);
        MqttAsyncClient client = new MqttAsyncClient(node.pahoUrl(), consumerId(index), new MemoryPersistence());
        try {
            // the callback first: a persistent session's queued messages come right after CONNACK
            MqttSubscriber subscriber = MqttSubscriber.connecting(client,
                    MqttClients.options(node, node.session(), maxInFlight), sink);
            MqttClients.connect(client, node, node.session(), maxInFlight);
            remember(consumerId(index), node);
            subscriber.subscribe(topics.filterOf(index), settings.qos());
            return subscriber;
        } catch (Exception e) {
            client.close(true);
            throw e;
        }
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) throws Exception {
        MqttSettings node = settings.onNode(streamId);
        return new MqttPublisher(client(plan.runId() + "-p" + streamId, node),
                MqttClients.options(node, node.session(), maxInFlight), topics.publishTopics(streamId), settings.qos(),
                acks, maxInFlight);
    }

    private String consumerId(int index) {
        return plan.runId() + "-c" + index;
    }

    /**
     * On a cluster, subscriber {@code index} talks to the node after producer stream {@code index}'s,
     * so that what it receives crosses from one node to another, as in a cluster's use.
     */
    private MqttSettings consumerSettings(int index) {
        return settings.onNode(index + 1);
    }

    private MqttAsyncClient client(String clientId, MqttSettings node) throws MqttException {
        MqttAsyncClient client = MqttClients.connect(node, clientId, node.session(), maxInFlight);
        remember(clientId, node);
        return client;
    }

    private synchronized void remember(String clientId, MqttSettings node) {
        if (settings.session() == MqttSession.PERSISTENT) {
            sessions.putIfAbsent(clientId, node);
        }
    }

    /**
     * Node 1: a local Mosquitto's one node, and on a cluster the first producer's node (MQTT 3.1.1
     * knows no leader; the subscriber's queue or stream is elsewhere, so faults name it by number).
     */
    @Override
    public OptionalInt leaderNode() {
        return OptionalInt.of(1);
    }

    /**
     * Only queued messages are kept: QoS 1 or 2 in a persistent session, which Mosquitto holds for a
     * subscriber that is away. A clean session is forgotten when its client leaves, and QoS 0 is
     * never queued for an absent client (Mosquitto's queue_qos0_messages is off).
     */
    @Override
    public boolean retainsMessages() {
        return settings.queuesForAbsentSubscribers();
    }

    @Override
    public SystemInfo info() {
        Map<String, Object> durability = new LinkedHashMap<>();
        durability.put("broker", settings.broker().label());
        durability.put("qos", settings.qos());
        durability.put("acknowledgement", switch (settings.qos()) {
            case 0 -> "none: QoS 0 has no handshake, a message is sent once";
            case 1 -> "PUBACK (QoS 1: at least once)";
            default -> "PUBCOMP (QoS 2: exactly once, the four-way handshake)";
        });
        durability.put("session", settings.session().label());
        Map<String, String> written = settings.writtenConfig();
        if (settings.broker() != MqttBroker.MOSQUITTO) {
            durability.putAll(settings.brokerKeeps() == null ? Map.of("configSource", UNKNOWN) : settings.brokerKeeps());
        } else {
            for (String key : List.of("persistence", "autosave_interval", "autosave_on_changes", "persistence_location")) {
                durability.put(key, written == null ? UNKNOWN : written.get(key));
            }
            durability.put("onKill", written == null ? UNKNOWN : MosquittoFaults.killLoses(written));
            durability.put("onRestart", written == null ? UNKNOWN : MosquittoFaults.restartLoses(written));
            durability.put("max_queued_messages", written == null ? UNKNOWN : written.get("max_queued_messages"));
            durability.put("configSource", written == null ? UNKNOWN : WRITTEN_CONFIG);
        }
        String anyBroker = SessionFaults.losesWhateverTheBroker(settings.qos(), settings.session());
        if (anyBroker != null) {
            // the broker's own entries describe a persistent session at QoS 1 or 2, which this run is not
            durability.put("onKill", anyBroker);
            durability.put("onRestart", anyBroker);
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("protocol", "MQTT 3.1.1");
        s.put("topics", topics.describe());
        s.put("retained", false);
        s.put("maxInFlightPerProducer", maxInFlight);
        if (settings.qos() == 2) {
            s.put("maxInFlightPerProducerWhy", "QoS 2: at most the broker's max_inflight_messages (Mosquitto's default "
                    + MOSQUITTO_INFLIGHT + "), beyond which Mosquitto 2.0 drops a 3.1.1 publisher");
        }
        s.put("clients", "one per producer stream and one per subscriber");
        if (settings.nodes() > 1) {
            s.put("clientNodes", "producer stream i on node i mod " + settings.nodes() + " + 1, subscriber j on node "
                    + "(j + 1) mod " + settings.nodes() + " + 1: what a subscriber receives crosses between nodes");
        }
        if (written != null) {
            s.put("mosquittoConf", written);
        }
        return new SystemInfo(NAME, MqttClients.clientVersion(), settings.brokerVersion(), durability, s,
                settings.qos() > 0);
    }

    /** Ends the persistent sessions the run made; its clients are closed already. */
    @Override
    public void close() throws Exception {
        Map<String, MqttSettings> made;
        synchronized (this) {
            made = new LinkedHashMap<>(sessions);
            sessions.clear();
        }
        List<AutoCloseable> ends = new ArrayList<>();
        made.forEach((clientId, node) -> ends.add(() -> MqttClients.discardSession(node, clientId)));
        CloseAll.inOrder(ends);
    }
}
