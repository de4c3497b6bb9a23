package dev.msgbench.kafka.nativetool;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import org.apache.kafka.common.utils.AppInfoParser;

import dev.msgbench.core.nativetool.MavenClasspath;
import dev.msgbench.core.system.NativeFigure;
import dev.msgbench.core.system.NativeRequest;
import dev.msgbench.core.system.NativeRun;
import dev.msgbench.core.system.NativeRun.Role;
import dev.msgbench.core.system.NativeRun.Step;
import dev.msgbench.core.system.NativeSide;
import dev.msgbench.core.system.NativeTool;

/**
 * Kafka's own ProducerPerformance and ConsumerPerformance (org.apache.kafka:kafka-tools, the
 * version of the suite's client), on a topic of one partition created before each run and deleted
 * after it, as ours deletes its own (a run of 2,000,000 x 1 KiB leaves 2 GB of log).
 *
 * <p>Publisher: ProducerPerformance's records/sec with acks=1 and the client's defaults otherwise,
 * --throughput -1; ours with --acks 1, every message acknowledged. Subscriber: ProducerPerformance
 * fills the topic, then ConsumerPerformance reads it from the start in a new group: its
 * fetch.nMsg.sec, counted from the group join's end to the last record ({@link ConsumerPerformanceOutput}),
 * against ours with --consume-after-produce, counted from the first record received to the last.
 * Client defaults on both sides (max.partition.fetch.bytes 1 MiB, receive.buffer.bytes 64 KiB: the
 * tool's --socket-buffer-size is set to it) except check.crcs=false, which the tool forces and ours
 * is given. The suite's broker has group.initial.rebalance.delay.ms=0, so neither join waits 3 s.
 *
 * <p>A warm-up is left out on both sides: ProducerPerformance sends it first and prints a
 * steady-state line (--warmup-records); ConsumerPerformance reads it first and is read from its
 * progress lines after it (--show-detailed-stats).
 */
public final class KafkaPerfTools implements NativeTool {

    /** The Kafka client's default receive.buffer.bytes, which our consumer keeps. */
    static final int RECEIVE_BUFFER_BYTES = 65536;
    /**
     * ConsumerPerformance's progress lines after a warm-up, ms apart: the window after the warm-up
     * begins at a line and ends at the last one, so each end is off by less than this.
     */
    static final int CONSUMER_REPORT_MS = 250;
    private static final String TOOLS = "org.apache.kafka.tools.";
    /** A transaction's length in ms on both sides, publisher side only; "none" for none. */
    static final String TRANSACTION_MS = "kafka-transaction-ms";
    private static final String NO_TRANSACTIONS = "none";

    @Override
    public List<Knob> knobs() {
        return List.of(new Knob(TRANSACTION_MS, NO_TRANSACTIONS, "publisher side: ProducerPerformance --transactional-id "
                + "--transaction-duration-ms N (acks=all) vs our --transactions Nms --acks all; none: no transactions"));
    }

    /** The knob's transaction length in ms, or 0 for none. */
    private static int transactionMs(NativeRequest request) {
        return NO_TRANSACTIONS.equals(request.knob(TRANSACTION_MS)) ? 0 : request.positiveKnob(TRANSACTION_MS);
    }

    /** Transactions are a producer's: the subscriber side reads a topic filled without them, as before. */
    private static boolean transactional(NativeRequest request) {
        return request.side() == NativeSide.PUBLISHER && transactionMs(request) > 0;
    }

    @Override
    public String name() {
        return "ProducerPerformance and ConsumerPerformance";
    }

    @Override
    public String origin() {
        return "org.apache.kafka:kafka-tools " + AppInfoParser.getVersion() + " from Maven Central";
    }

    /**
     * Kafka's small messages go 4 times faster than its 1 KiB ones, and 500,000 of them were read in
     * well under a second, where JIT warm-up made the rates bimodal. Kafka's runs are the longest (10
     * to 30 s of publishing on 2 cores): both tools are JVMs that share the machine with the broker,
     * and over 5 s of publishing the C2 compiler's second or two of CPU, more for ours (it compiles
     * its engine as well as the client), was taken from the broker.
     */
    @Override
    public long defaultMessages(long sizeBytes) {
        return sizeBytes < 512 ? 8_000_000 : 2_000_000;
    }

    @Override
    public boolean warms(NativeSide side) {
        return true;
    }

    @Override
    public String compared(NativeRequest request) {
        if (transactional(request)) {
            int ms = transactionMs(request);
            return "ProducerPerformance records/sec (acks=all, --transaction-duration-ms " + ms + ", one producer that "
                    + "commits inline) vs our publisher msg/s (--acks all --transactions " + ms + "ms, two producers "
                    + "per stream taking turns); the tool counts a record when its batch is acknowledged, before "
                    + "the commit, ours when its transaction's commit returns";
        }
        return request.side() == NativeSide.PUBLISHER
                ? "ProducerPerformance records/sec (acks=1) vs our publisher msg/s (--acks 1)"
                : "ConsumerPerformance fetch.nMsg.sec (after its group join) vs our consumer msg/s with "
                        + "--consume-after-produce (from its first record), check.crcs=false, receive.buffer.bytes "
                        + RECEIVE_BUFFER_BYTES + " on both";
    }

    @Override
    public String warmupNote(NativeRequest request) {
        return request.side() == NativeSide.PUBLISHER
                ? ", ProducerPerformance: --warmup-records, its steady-state line"
                : ", ConsumerPerformance: from its first progress line past the first " + request.warmupMessages()
                        + " records to its last";
    }

    @Override
    public List<String> matchingFlags(NativeRequest request) {
        if (transactional(request)) {
            return List.of("--acks", "all", "--consumers", "0", "--transactions", transactionMs(request) + "ms");
        }
        return request.side() == NativeSide.PUBLISHER
                ? List.of("--acks", "1", "--consumers", "0")
                // the consumer reads what was stored, from the start of the log, as ConsumerPerformance
                // does; check.crcs=false because the tool sets it and nothing overrides it
                : List.of("--acks", "1", "--consume-after-produce", "--consumers", "1",
                        "--consumer-prop", "check.crcs=false");
    }

    @Override
    public Prepared prepare(Path cacheDir, Consumer<String> progress) {
        String version = AppInfoParser.getVersion();
        String classpath = MavenClasspath.resolve(KafkaPerfTools.class, "kafka-tools.pom.xml", "kafka-tools-" + version,
                Map.of("kafka.version", version), cacheDir, progress);
        return request -> run(MavenClasspath.java(classpath), request);
    }

    /** The run's commands; {@code java} is the JVM and class path to run the tools with. */
    static NativeRun run(List<String> java, NativeRequest request) {
        String topic = request.runName();
        String url = request.url();
        long warmup = request.warmupMessages();
        long records = request.messages() + warmup;
        Step create = new Step("topic " + topic, Role.SETUP, tool(java, "TopicCommand", "--bootstrap-server", url,
                "--create", "--topic", topic, "--partitions", "1", "--replication-factor", "1"), ".topic");
        List<String> producerArgs = new ArrayList<>(List.of("--topic", topic, "--num-records", Long.toString(records)));
        if (warmup > 0 && request.side() == NativeSide.PUBLISHER) {
            producerArgs.addAll(List.of("--warmup-records", Long.toString(warmup)));
        }
        producerArgs.addAll(List.of("--record-size", Long.toString(request.sizeBytes()), "--throughput", "-1"));
        if (transactional(request)) {
            // a transactional producer is idempotent, which needs acks=all
            producerArgs.addAll(List.of("--transactional-id", topic + "-txn", "--transaction-duration-ms",
                    Integer.toString(transactionMs(request)), "--producer-props", "bootstrap.servers=" + url, "acks=all"));
        } else {
            producerArgs.addAll(List.of("--producer-props", "bootstrap.servers=" + url, "acks=1"));
        }
        Step producer = Step.measured("ProducerPerformance", tool(java, "ProducerPerformance", producerArgs.toArray(String[]::new)));
        Step delete = new Step("deleting topic " + topic, Role.CLEANUP, tool(java, "TopicCommand", "--bootstrap-server", url,
                "--delete", "--topic", topic), ".topic");
        if (request.side() == NativeSide.PUBLISHER) {
            return new NativeRun(List.of(create, producer, delete), out -> publisherFigure(out.of(producer), records, warmup));
        }
        // reads what the producer just stored, from its start, in a group of its own; the socket
        // buffer is the client's default (the tool's own is 2 MiB), as in our consumer
        List<String> consumerArgs = new ArrayList<>(List.of("--bootstrap-server", url, "--topic", topic, "--group", topic,
                "--num-records", Long.toString(records), "--socket-buffer-size", Integer.toString(RECEIVE_BUFFER_BYTES)));
        if (warmup > 0) {
            consumerArgs.addAll(List.of("--show-detailed-stats", "--reporting-interval", Integer.toString(CONSUMER_REPORT_MS)));
        }
        Step consumer = new Step("ConsumerPerformance", Role.MEASURED,
                tool(java, "ConsumerPerformance", consumerArgs.toArray(String[]::new)), ".consumer");
        return new NativeRun(List.of(create, producer, consumer, delete), out -> (warmup > 0
                ? ConsumerPerformanceOutput.steadyRate(out.of(consumer), warmup)
                : ConsumerPerformanceOutput.fetchRate(out.of(consumer))).map(NativeFigure::of));
    }

    /**
     * After a warm-up, the steady-state rate; the broker served every record, the warm-up's too,
     * at the whole run's rate, which gives the seconds the publishing took.
     */
    private static Optional<NativeFigure> publisherFigure(String output, long records, long warmup) {
        if (warmup == 0) {
            return ProducerPerformanceOutput.finalRate(output).map(NativeFigure::of);
        }
        Optional<String> whole = ProducerPerformanceOutput.finalRate(output);
        return ProducerPerformanceOutput.steadyRate(output).map(steady -> new NativeFigure(new BigDecimal(steady),
                whole.map(rate -> new BigDecimal(String.format(Locale.ROOT, "%.3f", records / Double.parseDouble(rate))))
                        .orElse(null)));
    }

    private static List<String> tool(List<String> java, String mainClass, String... args) {
        List<String> argv = new ArrayList<>(java);
        argv.add(TOOLS + mainClass);
        argv.addAll(List.of(args));
        return argv;
    }
}
