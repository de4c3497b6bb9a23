package dev.msgbench.cli.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.yaml.snakeyaml.nodes.Node;

import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.run.ClientSharing;

/**
 * An OpenMessaging Benchmark workload file, read as one e2e cell, so that people can reuse
 * theirs. OMB runs one fixed rate for a time after a warm-up, like e2e; the differences are
 * said as warnings or refused, never dropped silently.
 */
public final class OmbWorkload {

    /** Pulsar's partitions: 0 is a topic without partitions, as OMB's Pulsar driver makes for one partition. */
    private static final String PULSAR_PARTITIONS = "pulsar-partitions";

    /** The keys OMB's KeyDistributor draws from. */
    private static final int OMB_KEY_COUNT = 10_000;

    static final List<String> KEYS = List.of("name", "topics", "partitionsPerTopic", "messageSize", "producersPerTopic",
            "producerRate", "consumerPerSubscription", "subscriptionsPerTopic", "testDurationMinutes",
            "warmupDurationMinutes", "keyDistributor", "payloadFile", "consumerBacklogSizeGB", "useRandomizedPayloads",
            "randomBytesRatio", "randomizedPayloadPoolSize", "backlogDrainRatio", "messageProcessingDelayMs",
            "producerStartRate", "producerIncrementRate", "producerIncrementSeconds", "acceptableBacklog",
            "producerPauseDuringDrain", "messageRateReceivedForSubscription", "ensureTopicsAreReady");

    /** Beyond this many producers or consumers, they share this many threads and connections (the runner's default). */
    private static final long MAX_CLIENTS = ClientSharing.MAX_OWN;
    /** The runner's limit of logical producers or consumers. */
    private static final long MAX_LOGICAL_CLIENTS = 10_000_000;

    /** Keys that only an OMB file has. */
    private static final Set<String> MARKERS = Set.of("topics", "partitionsPerTopic", "messageSize", "producersPerTopic",
            "producerRate", "testDurationMinutes");

    private OmbWorkload() {
    }

    static boolean isOmb(YamlDocument doc) {
        return doc.entries(doc.root()).keySet().stream().anyMatch(MARKERS::contains);
    }

    static WorkloadFile read(YamlDocument doc, Catalogs catalogs, String system) {
        Map<String, Node> entries = doc.entries(doc.root());
        Map<String, Origin> lines = doc.keyOrigins(doc.root());
        String marker = entries.keySet().stream().filter(MARKERS::contains).findFirst().orElseThrow();
        for (String key : entries.keySet()) {
            if (!KEYS.contains(key)) {
                throw lines.get(key).error("unknown key '" + key + "' (read as an OpenMessaging Benchmark workload because of '"
                        + marker + "' at " + lines.get(marker) + "; its keys here: " + String.join(", ", KEYS) + ")");
            }
        }
        List<String> warnings = new ArrayList<>();
        Map<String, Node> top = OmbPlaceholders.resolve(doc, entries, lines, System::getenv, warnings);
        for (String required : List.of("topics", "partitionsPerTopic", "messageSize", "producersPerTopic", "producerRate",
                "subscriptionsPerTopic", "testDurationMinutes")) {
            if (!top.containsKey(required)) {
                throw new Origin(doc.file()).error("'" + required + "' is missing (an OpenMessaging Benchmark workload needs "
                        + "topics, partitionsPerTopic, messageSize, producersPerTopic, producerRate, subscriptionsPerTopic "
                        + "and testDurationMinutes)");
            }
        }
        long topics = positive(doc, top, "topics");
        long partitions = positive(doc, top, "partitionsPerTopic");
        long producers = positive(doc, top, "producersPerTopic");
        long consumers = consumersPerSubscription(doc, top, warnings);
        long subscriptions = positive(doc, top, "subscriptionsPerTopic");
        requireClientsAtMost(doc, top, "'topics' " + topics + " x 'producersPerTopic' " + producers,
                product(topics, producers));
        requireClientsAtMost(doc, top, "'topics' " + topics + " x 'subscriptionsPerTopic' " + subscriptions
                + " x 'consumerPerSubscription' " + consumers,
                product(product(topics, subscriptions), consumers));
        sharing(lines, topics * producers, topics * subscriptions * consumers, subscriptions * consumers, warnings);
        long rate = doc.wholeNumber("producerRate", top.get("producerRate"));
        if (rate < 0) {
            throw doc.origin(top.get("producerRate")).error("'producerRate' must be a rate above 0, or 0 (OMB's search for "
                    + "the highest rate, run here as sweep), got " + rate);
        }
        OmbUnsupported.check(doc, top, lines, warnings);

        List<Setting> settings = new ArrayList<>();
        settings.add(new Setting("system", text(system), new Origin("--system")));
        if (catalogs.systemHasFlag().test(system, "partitions")) {
            settings.add(number("partitions", partitions, lines.get("partitionsPerTopic")));
        } else if (catalogs.systemHasFlag().test(system, PULSAR_PARTITIONS)) {
            // as OMB's Pulsar driver: one partition is a topic without partitions, more a partitioned topic
            if (partitions > 1) {
                settings.add(number(PULSAR_PARTITIONS, partitions, lines.get("partitionsPerTopic")));
            }
        } else if (partitions != 1) {
            warnings.add(lines.get("partitionsPerTopic") + ": partitionsPerTopic ignored: --system " + system
                    + " has no partitions");
        }
        long size = size(doc, top, lines, warnings);
        Setting payload = OmbPayload.setting(doc, top, lines, size, warnings);
        if (!OmbPayload.isFile(payload)) {
            // a file's messages are the file's size: --size beside it is refused
            settings.add(number("size", size, lines.get("messageSize")));
        }
        if (payload != null) {
            settings.add(payload);
        }
        // stream s publishes to topic s mod topics: producersPerTopic streams on each
        settings.add(number("producers", topics * producers, lines.get("producersPerTopic")));
        // --consumers counts the consumers of each subscription, as consumerPerSubscription does
        settings.add(number("consumers", consumers, lines.get("consumerPerSubscription")));
        if (topics > 1) {
            settings.add(number("topics", topics, lines.get("topics")));
        }
        if (subscriptions > 1) {
            settings.add(number("subscriptions-per-topic", subscriptions, lines.get("subscriptionsPerTopic")));
        }
        long backlogGb = OmbUnsupported.backlogGb(doc, top);
        if (backlogGb > 0) {
            settings.add(new Setting("backlog", text(backlogGb + "GiB"), lines.get("consumerBacklogSizeGB")));
        }
        keys(doc, top, lines, settings);
        long durationMinutes = positive(doc, top, "testDurationMinutes");
        String schedule = OmbRateIncrements.schedule(doc, top, rate, durationMinutes * 60);
        if (schedule == null && rate > 0) {
            // 0 sets no rate: the sweep varies it
            settings.add(number("rate", rate, lines.get("producerRate")));
        }
        long warmup = top.containsKey("warmupDurationMinutes")
                ? doc.wholeNumber("warmupDurationMinutes", top.get("warmupDurationMinutes")) : 1;
        settings.add(new Setting("warmup", text(warmup + "m"),
                top.containsKey("warmupDurationMinutes") ? lines.get("warmupDurationMinutes") : new Origin(doc.file())));
        if (schedule == null) {
            settings.add(new Setting("duration", text(durationMinutes + "m"), lines.get("testDurationMinutes")));
        } else {
            // the schedule is the measured part: it replaces --rate and --duration
            settings.add(new Setting("rate-schedule", text(schedule), lines.get("producerStartRate")));
            warnings.add(lines.get("producerStartRate") + ": producerStartRate, producerIncrementRate and "
                    + "producerIncrementSeconds run as --rate-schedule '" + schedule + "' (the steps up to producerRate, "
                    + "then producerRate for the rest of testDurationMinutes; --scale shortens each step)");
        }

        String name = top.containsKey("name") ? doc.text("name", top.get("name")) : WorkloadReader.stem(doc.file());
        WorkloadFile.Item cell = new WorkloadFile.Item(name, null, List.of(), new Origin(doc.file()));
        return new WorkloadFile(doc.file(), name, rate == 0 ? WorkloadFile.OMB_RATE_SEARCH_SOURCE : WorkloadFile.OMB_SOURCE,
                null, "e2e", 1, settings,
                List.of(new WorkloadFile.Axis(WorkloadReader.CELLS, List.of(cell))), Map.of(), Columns.defaults("e2e"),
                warnings, 1, null);
    }

    /**
     * OMB's keyDistributor as --keys: KEY_ROUND_ROBIN and RANDOM_NANO draw from OMB's 10,000 keys,
     * in turn or uniformly at random (from --seed here, where OMB seeds from the clock).
     */
    private static void keys(YamlDocument doc, Map<String, Node> top, Map<String, Origin> lines, List<Setting> settings) {
        if (!top.containsKey("keyDistributor")) {
            return;
        }
        String distributor = doc.text("keyDistributor", top.get("keyDistributor"));
        String keys = switch (distributor) {
            case "NO_KEY" -> null;
            case "KEY_ROUND_ROBIN" -> "round-robin";
            case "RANDOM_NANO" -> "random";
            default -> throw doc.origin(top.get("keyDistributor")).error("'keyDistributor' must be NO_KEY, "
                    + "KEY_ROUND_ROBIN or RANDOM_NANO, got " + distributor);
        };
        if (keys != null) {
            settings.add(new Setting("keys", text(keys), lines.get("keyDistributor")));
            settings.add(number("key-count", OMB_KEY_COUNT, lines.get("keyDistributor")));
        }
    }

    /** OMB's messages of 20 B cannot carry the header every message here has: they run at the header's size, said. */
    private static long size(YamlDocument doc, Map<String, Node> top, Map<String, Origin> lines, List<String> warnings) {
        long sizeBytes = positive(doc, top, "messageSize");
        if (sizeBytes < PayloadHeader.BYTES) {
            warnings.add(lines.get("messageSize") + ": messageSize " + sizeBytes + " runs as " + PayloadHeader.BYTES
                    + " B: every message here carries the " + PayloadHeader.BYTES
                    + "-byte header (stream, sequence, send times)");
            return PayloadHeader.BYTES;
        }
        return sizeBytes;
    }

    /** Files written before OMB had consumerPerSubscription have one consumer per subscription, as OMB then did. */
    private static long consumersPerSubscription(YamlDocument doc, Map<String, Node> top, List<String> warnings) {
        if (top.containsKey("consumerPerSubscription")) {
            return positive(doc, top, "consumerPerSubscription");
        }
        warnings.add(doc.file() + ": consumerPerSubscription missing: 1 consumer per subscription (as in OMB before the "
                + "key existed)");
        return 1;
    }

    /** A product of numbers from the file, {@link Long#MAX_VALUE} where it would overflow. */
    private static long product(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private static void requireClientsAtMost(YamlDocument doc, Map<String, Node> top, String product, long clients) {
        if (clients > MAX_LOGICAL_CLIENTS) {
            throw doc.origin(top.get("topics")).error(String.format(Locale.US, "%s = %,d clients, at most %,d here",
                    product, clients, MAX_LOGICAL_CLIENTS));
        }
    }

    /**
     * Says how more than {@link #MAX_CLIENTS} producers or consumers run: as logical clients sharing the
     * runner's default threads and connections, one per processor, as OMB does (its producers share a
     * few threads per worker).
     */
    private static void sharing(Map<String, Origin> lines, long producers, long consumers, long consumersPerTopic,
                                List<String> warnings) {
        if (producers > MAX_CLIENTS) {
            int threads = ClientSharing.defaultSharedThreads();
            warnings.add(String.format(Locale.US, "%s: %,d producers share %,d threads and connections, one per "
                    + "processor (stream s on thread s mod %,d; --set producer-threads=N for others): each producer "
                    + "keeps its own schedule, sequence numbers and counts, and each message is measured from its own "
                    + "intended time, as OMB too runs its producers on a few threads", lines.get("producersPerTopic"),
                    producers, threads, threads));
        }
        if (consumers > MAX_CLIENTS && consumersPerTopic <= MAX_CLIENTS) {
            int connections = ClientSharing.defaultSharedConnections((int) consumersPerTopic);
            warnings.add(String.format(Locale.US, "%s: %,d consumers share %,d connections (consumer i on connection "
                    + "i mod %,d; --set consumer-connections=N for others): each consumer keeps its own subscription "
                    + "and counts, and a connection serves consumers of the same subscription number on different "
                    + "topics", lines.containsKey("consumerPerSubscription") ? lines.get("consumerPerSubscription")
                            : lines.get("subscriptionsPerTopic"), consumers, connections, connections));
        }
    }

    private static long positive(YamlDocument doc, Map<String, Node> top, String key) {
        long value = doc.wholeNumber(key, top.get(key));
        if (value < 1) {
            throw doc.origin(top.get(key)).error("'" + key + "' must be at least 1, got " + value);
        }
        return value;
    }

    private static FlagValue.Scalar text(String text) {
        return new FlagValue.Scalar(text, FlagValue.Type.TEXT);
    }

    private static Setting number(String key, long value, Origin origin) {
        return new Setting(key, new FlagValue.Scalar(Long.toString(value), FlagValue.Type.NUMBER), origin);
    }
}
