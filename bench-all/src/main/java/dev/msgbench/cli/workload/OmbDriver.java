package dev.msgbench.cli.workload;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;

import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;

import dev.msgbench.core.UserError;

/**
 * An OpenMessaging Benchmark driver file ({@code run WORKLOAD --driver driver-pulsar/pulsar.yaml}),
 * read as the flags of every cell: the system from its {@code driverClass}, its durability and
 * client fields as this suite's flags, and every field that has no flag here said in a warning,
 * never dropped silently. Kafka's and Pulsar's drivers are read.
 *
 * <p>A driver file names the broker it was written for; at OMB's own default address
 * (localhost:9092, pulsar://localhost:6650) that is a placeholder, read here as no broker given:
 * the suite starts its own, with the file's replication and quorums, as a local cluster where
 * they need more than one node ({@code --set url=...} runs against a broker of your own instead).
 */
public final class OmbDriver {

    static final String KAFKA_DRIVER = "io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver";
    static final String PULSAR_DRIVER = "io.openmessaging.benchmark.driver.pulsar.PulsarBenchmarkDriver";

    private static final List<String> KAFKA_KEYS = List.of("name", "driverClass", "replicationFactor", "reset",
            "topicConfig", "commonConfig", "producerConfig", "consumerConfig");
    private static final List<String> PULSAR_KEYS = List.of("name", "driverClass", "client", "producer", "consumer");
    private static final List<String> PULSAR_CLIENT_KEYS = List.of("serviceUrl", "httpUrl", "ioThreads",
            "connectionsPerBroker", "namespacePrefix", "clusterName", "topicType", "persistence", "astraStreaming",
            "tlsAllowInsecureConnection", "tlsEnableHostnameVerification", "tlsTrustCertsFilePath", "authentication");
    private static final List<String> PULSAR_PERSISTENCE_KEYS = List.of("ensembleSize", "writeQuorum", "ackQuorum",
            "deduplicationEnabled");
    private static final List<String> PULSAR_PRODUCER_KEYS = List.of("batchingEnabled", "batchingMaxPublishDelayMs",
            "blockIfQueueFull", "pendingQueueSize");
    private static final List<String> PULSAR_CONSUMER_KEYS = List.of("subscriptionType", "subscriptionMode",
            "receiverQueueSize");
    /** Pulsar client fields that tune its threads and connections: the suite's client keeps its own. */
    private static final Set<String> PULSAR_CLIENT_TUNING = Set.of("ioThreads", "connectionsPerBroker");

    private static final String KAFKA_DEFAULT_SERVERS = "localhost:9092";
    private static final String PULSAR_DEFAULT_URL = "pulsar://localhost:6650";
    private static final String PULSAR_DEFAULT_HTTP = "http://localhost:8080";
    /** The local Pulsar cluster's size: three brokers on three bookies. */
    private static final int PULSAR_CLUSTER_NODES = 3;

    private final YamlDocument doc;
    private final boolean urlGiven;
    private final List<Setting> settings = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final Map<String, String> brokerProps = new LinkedHashMap<>();
    private Origin brokerPropsOrigin;

    /** What a driver file adds to every cell. */
    public record Read(String system, List<Setting> settings, List<String> warnings) {
    }

    private OmbDriver(YamlDocument doc, boolean urlGiven) {
        this.doc = doc;
        this.urlGiven = urlGiven;
    }

    /**
     * @param shownAs  the path as the user wrote it, for messages
     * @param urlGiven whether the command line names the broker ({@code --set url=...}), which then
     *                 wins over the file's address, and the file's broker-side settings cannot apply
     */
    public static Read read(Path path, String shownAs, boolean urlGiven) {
        String text;
        try {
            if (Files.size(path) > WorkloadReader.MAX_FILE_BYTES) {
                throw new UserError(shownAs + ": too large for an OpenMessaging Benchmark driver file (at most "
                        + WorkloadReader.MAX_FILE_BYTES + " bytes)");
            }
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UserError("--driver " + shownAs + ": no such file");
        } catch (IOException e) {
            throw new UserError("--driver " + shownAs + ": cannot read it: " + e.getMessage());
        }
        return parse(shownAs, text, urlGiven, System::getenv);
    }

    static Read parse(String shownAs, String text, boolean urlGiven, Function<String, String> environment) {
        return new OmbDriver(YamlDocument.parse(shownAs, text), urlGiven).read(environment);
    }

    private Read read(Function<String, String> environment) {
        Map<String, Node> top = doc.entries(doc.root());
        Map<String, Origin> lines = doc.keyOrigins(doc.root());
        if (!top.containsKey("driverClass")) {
            throw new Origin(doc.file()).error("'driverClass' is missing: an OpenMessaging Benchmark driver file names "
                    + "its driver (" + KAFKA_DRIVER + " or " + PULSAR_DRIVER + ")");
        }
        String driverClass = doc.text("driverClass", top.get("driverClass"));
        String system = switch (driverClass) {
            case KAFKA_DRIVER -> "kafka";
            case PULSAR_DRIVER -> "pulsar";
            default -> throw doc.origin(top.get("driverClass")).error("driverClass " + driverClass + ": the driver "
                    + "files read here are Kafka's (" + KAFKA_DRIVER + ") and Pulsar's (" + PULSAR_DRIVER + "); for "
                    + "another system give --system and its flags with --set");
        };
        List<String> keys = system.equals("kafka") ? KAFKA_KEYS : PULSAR_KEYS;
        requireKnown(top, lines, keys, "a " + system + " driver file");
        Map<String, Node> resolved = OmbPlaceholders.resolve(doc, top, lines, environment, warnings);
        if (system.equals("kafka")) {
            kafka(resolved, lines);
        } else {
            pulsar(resolved, lines, environment);
        }
        if (!brokerProps.isEmpty()) {
            settings.add(new Setting("broker-prop", new FlagValue.Props(brokerProps), brokerPropsOrigin));
        }
        return new Read(system, settings, warnings);
    }

    // ---- Kafka: replicationFactor, topicConfig, commonConfig, producerConfig, consumerConfig

    private void kafka(Map<String, Node> top, Map<String, Origin> lines) {
        Map<String, String> common = properties(top, "commonConfig");
        Map<String, String> producer = properties(top, "producerConfig");
        Map<String, String> consumer = properties(top, "consumerConfig");
        Map<String, String> topic = properties(top, "topicConfig");
        boolean local = address(common.remove("bootstrap.servers"), "bootstrap.servers=", KAFKA_DEFAULT_SERVERS, "Kafka",
                lines.get("commonConfig"));
        if (top.containsKey("replicationFactor")) {
            long factor = doc.wholeNumber("replicationFactor", top.get("replicationFactor"));
            Origin origin = doc.origin(top.get("replicationFactor"));
            settings.add(new Setting("replication-factor", number(factor), origin));
            if (local && factor > 1) {
                settings.add(new Setting("brokers", number(factor), origin));
                warnings.add(origin + ": replicationFactor " + factor + " runs on a local cluster of " + factor
                        + " brokers (--brokers " + factor + ")");
            }
        }
        if (top.containsKey("reset")) {
            warnings.add(lines.get("reset") + ": reset ignored: every run here writes to topics of its own");
        }
        String acks = producer.remove("acks");
        if (acks != null) {
            settings.add(new Setting("acks", text(acks.strip().equals("-1") ? "all" : acks.strip()),
                    lines.get("producerConfig")));
        }
        // commonConfig is both clients' configuration, as OMB applies it
        Map<String, String> producerProps = new LinkedHashMap<>(common);
        producerProps.putAll(producer);
        Map<String, String> consumerProps = new LinkedHashMap<>(common);
        consumerProps.putAll(consumer);
        if (!producerProps.isEmpty()) {
            settings.add(new Setting("producer-prop", new FlagValue.Props(producerProps),
                    lines.getOrDefault("producerConfig", lines.get("commonConfig"))));
        }
        if (!consumerProps.isEmpty()) {
            settings.add(new Setting("consumer-prop", new FlagValue.Props(consumerProps),
                    lines.getOrDefault("consumerConfig", lines.get("commonConfig"))));
        }
        if (!topic.isEmpty()) {
            if (local) {
                // the suite's own brokers: a topic configuration is the brokers' default for every topic
                topic.forEach((k, v) -> brokerProp(k, v, lines.get("topicConfig")));
                warnings.add(lines.get("topicConfig") + ": topicConfig " + String.join(", ", topic.keySet())
                        + " set as the local brokers' defaults (--broker-prop), which every topic of the run takes");
            } else {
                warnings.add(lines.get("topicConfig") + ": topicConfig " + String.join(", ", topic.keySet())
                        + " ignored: on a broker the suite did not start, the run's topics take the broker's defaults");
            }
        }
    }

    /**
     * The file's broker address as --url, unless the command line names one or it is OMB's
     * placeholder.
     *
     * @return whether the suite starts its own broker
     */
    private boolean address(String address, String field, String placeholder, String system, Origin origin) {
        if (urlGiven) {
            return false;
        }
        if (address == null || address.strip().equals(placeholder)) {
            if (address != null) {
                warnings.add(origin + ": " + field + placeholder + " is OMB's placeholder: the suite starts its own "
                        + system + " (--set url=" + placeholder + " to use one running there)");
            }
            return true;
        }
        settings.add(new Setting("url", text(address.strip()), origin));
        return false;
    }

    /** A Java properties block ({@code producerConfig: |} then {@code acks=all} lines), in file order. */
    private Map<String, String> properties(Map<String, Node> top, String key) {
        Map<String, String> entries = new LinkedHashMap<>();
        Node node = top.get(key);
        if (node == null || node instanceof ScalarNode scalar && scalar.getTag().equals(Tag.NULL)) {
            return entries;
        }
        Properties parsed = new Properties() {
            @Override
            public synchronized Object put(Object k, Object v) {
                entries.put((String) k, (String) v);
                return super.put(k, v);
            }
        };
        try {
            parsed.load(new StringReader(doc.text(key, node)));
        } catch (IOException | IllegalArgumentException e) {
            throw doc.origin(node).error("'" + key + "' must be Java properties, KEY=VALUE lines: " + e.getMessage());
        }
        return entries;
    }

    // ---- Pulsar: client (service URL, persistence), producer (batching), consumer (subscription type)

    private void pulsar(Map<String, Node> top, Map<String, Origin> lines, Function<String, String> environment) {
        Map<String, Node> client = section(top, lines, "client", PULSAR_CLIENT_KEYS, environment);
        Map<String, Origin> clientLines = keyLines(top, "client");
        boolean local = address(optionalText(client, "serviceUrl"), "serviceUrl ", PULSAR_DEFAULT_URL, "Pulsar",
                clientLines.get("serviceUrl"));
        String httpUrl = optionalText(client, "httpUrl");
        if (httpUrl != null && !local && !urlGiven) {
            settings.add(new Setting("pulsar-admin-url", text(httpUrl.strip()), clientLines.get("httpUrl")));
        } else if (httpUrl != null && !local && !httpUrl.strip().equals(PULSAR_DEFAULT_HTTP)) {
            warnings.add(clientLines.get("httpUrl") + ": httpUrl ignored beside --set url (give --set pulsar-admin-url="
                    + httpUrl.strip() + ")");
        }
        String topicType = optionalText(client, "topicType");
        if (topicType != null && !topicType.equals("persistent")) {
            throw clientLines.get("topicType").error("topicType " + topicType + ": only persistent topics are run "
                    + "here (a non-persistent topic keeps nothing, so no loss could be told from a drop)");
        }
        for (String tuning : List.of("ioThreads", "connectionsPerBroker", "namespacePrefix", "clusterName",
                "astraStreaming", "tlsEnableHostnameVerification")) {
            if (client.containsKey(tuning) && !isEmpty(client.get(tuning))) {
                warnings.add(clientLines.get(tuning) + ": " + tuning + " ignored: "
                        + (PULSAR_CLIENT_TUNING.contains(tuning) ? "the suite's client keeps Pulsar's own defaults"
                        : tuning.equals("namespacePrefix") || tuning.equals("clusterName")
                        ? "the suite makes its topics in a namespace of its own" : "not offered here"));
            }
        }
        String trust = optionalText(client, "tlsTrustCertsFilePath");
        if (trust != null && !trust.isBlank()) {
            settings.add(new Setting("ca", text(trust.strip()), clientLines.get("tlsTrustCertsFilePath")));
        }
        if (client.containsKey("tlsAllowInsecureConnection") && "true".equals(optionalText(client,
                "tlsAllowInsecureConnection"))) {
            throw clientLines.get("tlsAllowInsecureConnection").error("tlsAllowInsecureConnection: true is not offered "
                    + "here: give the broker's CA instead (tlsTrustCertsFilePath, or --set ca=FILE)");
        }
        if (client.containsKey("authentication")) {
            Map<String, Node> auth = nested(client, clientLines, "authentication", List.of("plugin", "data"), environment);
            String plugin = optionalText(auth, "plugin");
            if (plugin != null && !plugin.isBlank()) {
                throw clientLines.get("authentication").error("authentication plugin " + plugin + ": give the login "
                        + "as --set user=NAME and --set password-file=FILE instead");
            }
        }
        if (client.containsKey("persistence")) {
            persistence(nested(client, clientLines, "persistence", PULSAR_PERSISTENCE_KEYS, environment),
                    keyLines(client, "persistence"), clientLines.get("persistence"), local);
        }
        producer(section(top, lines, "producer", PULSAR_PRODUCER_KEYS, environment), keyLines(top, "producer"));
        consumer(section(top, lines, "consumer", PULSAR_CONSUMER_KEYS, environment), keyLines(top, "consumer"),
                lines.get("driverClass"));
    }

    /**
     * The ledger's quorums: on the suite's own Pulsar, the brokers' defaults, exactly as the file
     * says (on a cluster of three where they need more than one bookie); on a broker of your own,
     * the ack quorum through --acks, which offers one bookie or all of the write quorum.
     */
    private void persistence(Map<String, Node> persistence, Map<String, Origin> keyLines, Origin section,
            boolean local) {
        // a key left to OMB's default is said at the section's line
        Map<String, Origin> lines = new LinkedHashMap<>();
        PULSAR_PERSISTENCE_KEYS.forEach(key -> lines.put(key, keyLines.getOrDefault(key, section)));
        long ensemble = quorum(persistence, "ensembleSize");
        long write = quorum(persistence, "writeQuorum");
        long ack = quorum(persistence, "ackQuorum");
        if (persistence.containsKey("deduplicationEnabled")
                && "true".equals(optionalText(persistence, "deduplicationEnabled"))) {
            throw lines.get("deduplicationEnabled").error("deduplicationEnabled: true is not offered here: the suite "
                    + "counts duplicated deliveries itself, and a broker that drops them would hide what it counts");
        }
        if (local) {
            if (ensemble > PULSAR_CLUSTER_NODES) {
                throw lines.get("ensembleSize").error("ensembleSize " + ensemble + ": a local Pulsar has at most "
                        + PULSAR_CLUSTER_NODES + " bookies; give --set url=... for a larger cluster");
            }
            if (ensemble > 1) {
                settings.add(new Setting("brokers", number(PULSAR_CLUSTER_NODES), lines.get("ensembleSize")));
                warnings.add(lines.get("ensembleSize") + ": ensembleSize " + ensemble + " runs on a local cluster of "
                        + PULSAR_CLUSTER_NODES + " brokers and " + PULSAR_CLUSTER_NODES + " bookies (--brokers "
                        + PULSAR_CLUSTER_NODES + ")");
            }
            brokerProp("managedLedgerDefaultEnsembleSize", Long.toString(ensemble), lines.get("ensembleSize"));
            brokerProp("managedLedgerDefaultWriteQuorum", Long.toString(write), lines.get("writeQuorum"));
            brokerProp("managedLedgerDefaultAckQuorum", Long.toString(ack), lines.get("ackQuorum"));
            return;
        }
        if (ack == write) {
            settings.add(new Setting("acks", text("all"), lines.get("ackQuorum")));
        } else if (ack == 1) {
            settings.add(new Setting("acks", text("1"), lines.get("ackQuorum")));
        } else {
            throw lines.get("ackQuorum").error("ackQuorum " + ack + " of writeQuorum " + write + ": on a broker the "
                    + "suite did not start, --acks sets the ack quorum to 1 or to the write quorum; write one of them");
        }
        warnings.add(lines.get("ensembleSize") + ": ensembleSize " + ensemble + " and writeQuorum " + write
                + " are the broker's own (the namespace takes the broker's defaults; result.json says what ran)");
    }

    private long quorum(Map<String, Node> persistence, String key) {
        // OMB's defaults, PulsarClientConfig.PersistenceConfiguration
        long value = persistence.containsKey(key) ? doc.wholeNumber(key, persistence.get(key))
                : key.equals("ackQuorum") ? 2 : 3;
        if (value < 1) {
            throw doc.origin(persistence.get(key)).error("'" + key + "' must be at least 1, got " + value);
        }
        return value;
    }

    private void producer(Map<String, Node> producer, Map<String, Origin> lines) {
        boolean batching = !"false".equals(optionalText(producer, "batchingEnabled"));
        if (!batching) {
            settings.add(new Setting("pulsar-batching", text("off"), lines.get("batchingEnabled")));
        } else if (producer.containsKey("batchingMaxPublishDelayMs")) {
            long delay = doc.wholeNumber("batchingMaxPublishDelayMs", producer.get("batchingMaxPublishDelayMs"));
            if (delay < 1) {
                throw lines.get("batchingMaxPublishDelayMs").error("batchingMaxPublishDelayMs must be at least 1, got "
                        + delay + " (batchingEnabled: false turns batching off)");
            }
            settings.add(new Setting("pulsar-batching", text(delay + "ms"), lines.get("batchingMaxPublishDelayMs")));
        }
        if ("false".equals(optionalText(producer, "blockIfQueueFull"))) {
            warnings.add(lines.get("blockIfQueueFull") + ": blockIfQueueFull false runs as true: the producers here "
                    + "wait on a full queue, as OMB's stock file has them, and the wait counts in the latency from the "
                    + "intended send time");
        }
        if (producer.containsKey("pendingQueueSize")) {
            warnings.add(lines.get("pendingQueueSize") + ": pendingQueueSize ignored: the producers keep the client's "
                    + "default, a queue bounded by its memory limit");
        }
    }

    /** OMB's Pulsar consumers subscribe as failover unless the file says otherwise. */
    private void consumer(Map<String, Node> consumer, Map<String, Origin> lines, Origin driverLine) {
        String type = optionalText(consumer, "subscriptionType");
        if (type == null) {
            settings.add(new Setting("pulsar-subscription-type", text("failover"), driverLine));
        } else {
            settings.add(new Setting("pulsar-subscription-type", text(type.toLowerCase(Locale.ROOT)),
                    lines.get("subscriptionType")));
        }
        String mode = optionalText(consumer, "subscriptionMode");
        if (mode != null && !mode.equals("Durable")) {
            throw lines.get("subscriptionMode").error("subscriptionMode " + mode + ": only Durable subscriptions are "
                    + "run here (a subscription that forgets its position cannot count losses)");
        }
        if (consumer.containsKey("receiverQueueSize")) {
            warnings.add(lines.get("receiverQueueSize") + ": receiverQueueSize ignored: the suite's consumers keep the "
                    + "client's default (1,000)");
        }
    }

    // ---- the file's structure

    private Map<String, Node> section(Map<String, Node> top, Map<String, Origin> lines, String key, List<String> known,
            Function<String, String> environment) {
        return top.containsKey(key) && !isEmpty(top.get(key)) ? nested(top, lines, key, known, environment) : Map.of();
    }

    private Map<String, Node> nested(Map<String, Node> parent, Map<String, Origin> lines, String key, List<String> known,
            Function<String, String> environment) {
        Node node = parent.get(key);
        if (isEmpty(node)) {
            return Map.of();
        }
        MappingNode map = doc.mapping(key, node);
        Map<String, Node> entries = doc.entries(map);
        Map<String, Origin> entryLines = doc.keyOrigins(map);
        requireKnown(entries, entryLines, known, "'" + key + "'");
        return OmbPlaceholders.resolve(doc, entries, entryLines, environment, warnings);
    }

    private Map<String, Origin> keyLines(Map<String, Node> parent, String key) {
        Node node = parent.get(key);
        return node instanceof MappingNode map ? doc.keyOrigins(map) : Map.of();
    }

    private void requireKnown(Map<String, Node> entries, Map<String, Origin> lines, List<String> known, String what) {
        for (String key : entries.keySet()) {
            if (!known.contains(key)) {
                throw lines.get(key).error("unknown key '" + key + "' in " + what + " (its keys: "
                        + String.join(", ", known) + ")");
            }
        }
    }

    private String optionalText(Map<String, Node> entries, String key) {
        Node node = entries.get(key);
        return node == null || isEmpty(node) ? null : doc.text(key, node);
    }

    private static boolean isEmpty(Node node) {
        return node instanceof ScalarNode scalar && scalar.getTag().equals(Tag.NULL);
    }

    private void brokerProp(String key, String value, Origin origin) {
        brokerProps.put(key, value);
        if (brokerPropsOrigin == null) {
            brokerPropsOrigin = origin;
        }
    }

    private static FlagValue.Scalar text(String text) {
        return new FlagValue.Scalar(text, FlagValue.Type.TEXT);
    }

    private static FlagValue.Scalar number(long value) {
        return new FlagValue.Scalar(Long.toString(value), FlagValue.Type.NUMBER);
    }
}
