package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * e2e and throughput --system rabbitmq-streams against a local RabbitMQ with its stream plugin, run in-process;
 * the runs that check no broker start use one broker started for the class, with --url.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@NeedsBroker
class RabbitStreamsEndToEndTest {

    /** What osiris logs where a stream's writer (its leader) starts; a leader elected after a failover has a later epoch. */
    private static final Predicate<String> FIRST_LEADER =
            Pattern.compile("osiris_writer:init/1: name: .* epoch: 1$").asPredicate();

    private static LocalRabbitMq broker;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker(@TempDir Path logs) {
        broker = LocalRabbitMq.start(RabbitBrokerSpec.of(BrokerSpec.defaults().withLogDir(logs)).withStreams());
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void oneNodeConfirmsAndDeliversEveryMessageAndRecordsTheStreamsDurabilityAsReadBack() throws Exception {
        Path out = dir.resolve("one-node");
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq-streams", "--rate", "500", "--duration", "2s",
                "--warmup", "1s", "--size", "256B", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText());
        assertEquals("rabbitmq-streams", r.get("system").asText());
        ResultTrees.assertEachDeliveredOnce(r, 1_500);
        JsonNode d = r.get("durability");
        assertEquals("all", d.get("acks").asText());
        assertTrue(d.get("confirms").asBoolean());
        assertEquals("written by a quorum of the stream's replicas (into each node's page cache: streams never fsync)",
                d.get("confirmedWhen").asText());
        assertEquals(1, d.get("replicas").asInt());
        assertEquals("1", d.get("initialClusterSize").asText());
        assertEquals("500000000 (RabbitMQ's default)", d.get("maxSegmentSizeBytes").asText());
        assertEquals("none: the stream keeps every message", d.get("retention").asText());
        assertEquals("stream", d.get("streamArguments").get("x-queue-type").asText());
        assertTrue(r.get("versions").get("client").asText().startsWith("stream-client 1."), r.get("versions").toString());
        assertTrue(r.get("versions").get("broker").asText().startsWith("3."));
        assertTrue(r.get("broker").get("local").asBoolean());
        for (String file : List.of("latency.hgrm", "service.hgrm", "ack.hgrm", "latency.hlog")) {
            assertTrue(Files.size(out.resolve(file)) > 0, file);
        }
        assertTrue(Files.readString(out.resolve("broker-logs").resolve("rabbitmq-1.log")).contains("rabbitmq_stream"),
                "the broker's log, kept with the results, names the plugin");
        assertTrue(run.out.contains("sent 1,500   acknowledged 1,500   received 1,500   lost 0"), run.out);
        assertTrue(run.err.contains(" ready at rabbitmq-stream://127.0.0.1:"), run.err);
    }

    /**
     * The RabbitMQ 4.0 that scripts/setup unpacks from Debian 13, started through --rabbitmq-bin: keyed
     * messages routed over a super stream's partitions, read by a single-active-consumer group of two.
     */
    @Test
    void superStreamsAndSingleActiveConsumersOnTheNewerRabbitMqLoseNothing() throws Exception {
        Path out = dir.resolve("super-streams");
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq-streams", "--rabbitmq-bin",
                RabbitBrokerSpec.TRIXIE_INSTALL_DIR.toString(),
                "--super-stream-partitions", "3", "--keys", "round-robin", "--consumers", "2",
                "--stream-single-active-consumer", "--rate", "300", "--duration", "2s", "--warmup", "500ms",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), r.toString());
        ResultTrees.assertEachDeliveredOnce(r, 750);
        assertTrue(r.get("versions").get("broker").asText().startsWith("4."), r.get("versions").toString());
        JsonNode settings = r.get("settings");
        assertEquals(3, settings.get("superStreamPartitions").asInt(), settings.toString());
        assertTrue(settings.get("singleActiveConsumer").asText().startsWith("on: "), settings.toString());
        assertTrue(settings.get("routing").asText().startsWith("each message's message-id property"),
                settings.toString());
    }

    @Test
    void threeTopicsAreThreeStreamsEachReadWholeByBothOfItsSubscriptions() throws Exception {
        FanOutRuns.threeTopicsTwoSubscriptionsEach(dir.resolve("fan-out"), "--system", "rabbitmq-streams", "--url",
                broker.url());
    }

    @Test
    void throughputConfirmsAndDeliversEveryMessage() throws Exception {
        Path out = dir.resolve("throughput");
        CliRun run = CliRun.of("throughput", "--system", "rabbitmq-streams", "--url", broker.url(), "--messages",
                "30000", "--warmup-messages", "0", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(30_000, r.get("counts").get("acknowledged").asLong());
        assertEquals(30_000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals("all", r.get("durability").get("acks").asText());
    }

    /** One cluster start for both replication and the leader's kill: a three-node start takes 30 to 40 s on two busy cores. */
    @Test
    @Timeout(180)
    void threeNodesReplicateEachStreamOnEveryNodeAndItsLeaderKilledMidRunLosesNoAcknowledgedMessage()
            throws Exception {
        Path out = dir.resolve("three-nodes");
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq-streams", "--brokers", "3", "--acks", "all", "--rate",
                "200", "--duration", "20s", "--warmup", "1s", "--fault", "kill@3s:node=leader:restart-after=1s",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), r.toString());
        JsonNode counts = r.get("counts");
        assertEquals(0, counts.get("acknowledgedLost").asLong(), counts.toString());
        assertTrue(counts.get("acknowledged").asLong() > 500, "confirmed before the kill at least: " + counts);
        assertEquals(0, counts.get("reordered").asLong(), counts.toString());
        JsonNode d = r.get("durability");
        assertEquals(3, d.get("replicas").asInt(), d.toString());
        assertEquals("3", d.get("initialClusterSize").asText());
        assertEquals(3, r.get("settings").get("nodes").asInt());
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals("kill", event.get("kind").asText());
        // killed; whether it is back before the run ends is not asserted: a RabbitMQ node that rejoins its cluster
        // has taken longer than the 16 s left on two busy cores
        assertTrue(event.get("doneAtSeconds").isNumber(), event.toString());
        int killed = event.get("node").asInt();
        // the stream's first writer (its leader, epoch 1) started on the node the run killed, and on no other
        for (int node = 1; node <= 3; node++) {
            String log = Files.readString(out.resolve("broker-logs").resolve("rabbitmq-" + node + ".log"));
            assertEquals(node == killed, log.lines().anyMatch(FIRST_LEADER), "node " + node + ", killed " + killed);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '#', value = {
        "--acks 0#error: --acks 0 has no equivalent on rabbitmq-streams: the stream protocol confirms every publish; "
                + "use --acks all (the default)",
        "--acks 1 --brokers 3#error: --acks 1 has no equivalent on rabbitmq-streams with more than one replica: a "
                + "stream confirms a publish once a quorum of its replicas has it; use --acks all",
        "--super-stream-partitions 3#error: --super-stream-partitions needs RabbitMQ 3.11 or later, where super "
                + "streams and single active consumers on streams arrived; this RabbitMQ is 3.10.8: leave it out, or "
                + "start the RabbitMQ 4.0 that scripts/setup installs with --rabbitmq-bin "
                + "~/.cache/msgbench/rabbitmq-trixie/usr/lib/rabbitmq/bin, or pass --url to a newer broker",
        "--stream-single-active-consumer --consumers 2#error: --stream-single-active-consumer needs RabbitMQ 3.11 or "
                + "later, where super streams and single active consumers on streams arrived; this RabbitMQ is 3.10.8: "
                + "leave it out, or start the RabbitMQ 4.0 that scripts/setup installs with --rabbitmq-bin "
                + "~/.cache/msgbench/rabbitmq-trixie/usr/lib/rabbitmq/bin, or pass --url to a newer broker",
        "--queue-type quorum#error: --queue-type applies to --system rabbitmq only, not rabbitmq-streams (see java -jar "
                + "bench-all.jar e2e --help)"})
    void whatStreamsOrThisRabbitMqCannotDoIsOneLineBeforeAnyBrokerStarts(String flags, String error) {
        List<String> args = new ArrayList<>(List.of("e2e", "--system", "rabbitmq-streams", "--output",
                dir.resolve("refused").toString()));
        args.addAll(List.of(flags.split(" ")));
        CliRun run = CliRun.of(args.toArray(new String[0]));

        assertEquals(2, run.exitCode, run.toString());
        assertEquals(error + System.lineSeparator(), run.err);
        assertFalse(Files.exists(dir.resolve("refused")), "no run started");
    }

    /** It also names the node's AMQP URL, where compare-native's PerfTest declares its stream queue. */
    @Test
    void theBrokerCommandPrintsAStreamAddressThatAnswersAndStopsCleanly() throws Exception {
        CliRun run = CliRun.of("broker", "rabbitmq-streams", "--stop-after", "1s", "--logs", dir.resolve("logs").toString());
        assertEquals(0, run.exitCode, run.toString());
        String url = run.out.trim();
        assertTrue(url.matches("rabbitmq-stream://127\\.0\\.0\\.1:\\d+"), run.out);
        List<String> amqp = run.err.lines().filter(l -> l.startsWith("native tool url: ")).toList();
        assertEquals(1, amqp.size(), run.err);
        assertTrue(amqp.get(0).matches("native tool url: amqp://127\\.0\\.0\\.1:\\d+"), run.err);
        assertFalse(accepts(URI.create(url).getPort()), "the broker is stopped when the command ends");
        assertTrue(Files.exists(dir.resolve("logs").resolve("rabbitmq-1.log")));
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
