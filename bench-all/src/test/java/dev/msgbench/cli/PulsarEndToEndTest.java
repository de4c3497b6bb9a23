package dev.msgbench.cli;

import static dev.msgbench.cli.LoopbackPorts.accepts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/** e2e and throughput --system pulsar against a standalone each run starts itself, run in-process. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@NeedsBroker
class PulsarEndToEndTest {

    @TempDir
    Path dir;

    @Test
    void e2eReceivesEverythingAndRecordsTheDurabilityAsTheBrokerHasIt() throws Exception {
        Path out = dir.resolve("e2e");
        CliRun run = CliRun.of("e2e", "--system", "pulsar", "--rate", "1000", "--duration", "2s", "--warmup", "1s",
                "--size", "256B", "--pulsar-send-timeout", "2m", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText());
        assertEquals("pulsar", r.get("system").asText());
        ResultTrees.assertEachDeliveredOnce(r, 3_000);
        JsonNode durability = r.get("durability");
        assertEquals("broker default", durability.get("acks").asText());
        assertEquals("broker default (public/default sets none)", durability.get("persistencePolicy").asText());
        assertEquals(1, durability.get("bookkeeperEnsemble").asInt());
        assertEquals(1, durability.get("bookkeeperWriteQuorum").asInt());
        assertEquals(1, durability.get("bookkeeperAckQuorum").asInt());
        assertTrue(durability.get("journalSyncData").asBoolean(), "the suite's standalone fsyncs the bookie's journal");
        assertEquals("pulsar-client 4.0.7", r.get("versions").get("client").asText());
        assertEquals("4.0.7", r.get("versions").get("broker").asText());
        assertEquals("default", r.get("settings").get("pulsarBatching").asText());
        assertTrue(r.get("settings").get("batchingEnabled").asBoolean(), r.get("settings").toString());
        assertEquals("2m", r.get("settings").get("pulsarSendTimeout").asText());
        assertEquals(120_000, r.get("settings").get("sendTimeoutMs").asLong(), "as the producers have it");
        assertEquals("none", r.get("settings").get("encryption").asText());
        assertEquals("true", r.get("settings").get("standaloneConf").get("journalSyncData").asText());
        assertTrue(r.get("settings").get("standaloneStartSeconds").asDouble() > 0);
        try (Stream<Path> logs = Files.list(out.resolve("broker-logs"))) {
            assertTrue(logs.anyMatch(p -> p.getFileName().toString().equals("pulsar-1.log")),
                    "broker log kept with the results");
        }
        assertTrue(run.err.contains("ready at pulsar://127.0.0.1:"), run.err);
    }

    /**
     * The suite's default, journalSyncData=true: the bookie fsyncs its journal before the broker
     * acknowledges, so a power cut of the standalone, its unsynced writes rolled back, loses no
     * acknowledged message.
     */
    @Test
    void aPowerCutOfTheStandaloneLosesNoAcknowledgedMessageWithItsJournalSynced() throws Exception {
        Path out = dir.resolve("power-loss");
        CliRun run = CliRun.of("e2e", "--system", "pulsar", "--rate", "1000", "--duration", "4s", "--warmup", "0s",
                // the standalone's restart takes 15 to 40 s here: the drain waits for it, and so do the sends,
                // which the client's 30 s send timeout failed at load 17 (2026-11-30)
                "--fault", "power-loss@1500ms", "--pulsar-send-timeout", "0", "--drain-timeout", "90s",
                "--output", out.toString());

        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), run.toString());
        assertEquals(0, run.exitCode, run.toString());
        assertEquals(0, r.get("counts").get("acknowledgedLost").asLong(), r.get("counts").toString());
        assertTrue(r.get("counts").get("acknowledged").asLong() > 1_000, r.get("counts").toString());
        assertTrue(r.get("durability").get("journalSyncData").asBoolean(), r.get("durability").toString());
        assertEquals(true, r.get("broker").get("forgetfulDisks").asBoolean(), r.get("broker").toString());
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals("done", event.get("outcome").asText(), event.toString());
        assertEquals(1, event.get("powerCuts").get(0).get("node").asInt(), event.toString());
        assertTrue(Files.readString(out.resolve("latency.hlog")).contains("#[fault power-loss node=1 asked 1."));
    }

    /** The experiment: Pulsar's shipped standalone.conf does not fsync the journal; the result says so. */
    @Test
    void throughputWithAcksAllWithoutJournalSyncOverTwoPartitionsLosesNothing() throws Exception {
        Path out = dir.resolve("throughput");
        CliRun run = CliRun.of("throughput", "--system", "pulsar", "--messages", "20000", "--size", "100B",
                "--acks", "all", "--broker-prop", "journalSyncData=false", "--pulsar-partitions", "2",
                "--consumers", "2", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), run.toString());
        assertEquals(20_000, r.get("counts").get("sent").asLong());
        assertEquals(20_000, r.get("counts").get("acknowledged").asLong());
        assertEquals(20_000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("unsent").asLong());
        JsonNode durability = r.get("durability");
        assertEquals("all", durability.get("acks").asText());
        assertEquals("namespace public/default", durability.get("persistencePolicy").asText());
        assertEquals(1, durability.get("bookkeeperAckQuorum").asInt());
        assertFalse(durability.get("journalSyncData").asBoolean());
        assertEquals("Shared", r.get("settings").get("subscriptionType").asText());
        assertEquals(2, r.get("settings").get("partitions").asInt());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--acks 0|error: --acks 0: a Pulsar producer always waits for the bookies' ack quorum; use --acks 1 (ack quorum 1) or all (ack quorum = write quorum), or leave it out for the broker's default",
            "--brokers 2|error: --brokers 2: a local Pulsar is one standalone (--brokers 1) or a cluster of 3 brokers and 3 bookies (--brokers 3); use one of them, or --url",
            "--fault kill@1s:node=bookie-1|error: --fault 'kill@1s:node=bookie-1': node=bookie-1: a Pulsar standalone (--brokers 1) is one node, its broker and bookie in one JVM: use node=1, or a cluster (--brokers 3) for its bookies (see java -jar bench-all.jar e2e --help)",
            "--brokers 3 --fault power-loss@1s:node=bookie-9|error: --fault 'power-loss@1s:node=bookie-9': node=bookie-9: a local Pulsar cluster names bookie-1 to bookie-3 and broker-1 to broker-3 (the same as node=1 to 3) (see java -jar bench-all.jar e2e --help)",
            "--brokers 3 --fault kill@1s:node=zookeeper-1|error: --fault 'kill@1s:node=zookeeper-1': node=zookeeper-1: a local Pulsar cluster names bookie-1 to bookie-3 and broker-1 to broker-3 (the same as node=1 to 3) (see java -jar bench-all.jar e2e --help)",
            "--brokers 3 --fault power-loss@1s:node=2|error: --fault 'power-loss@1s:node=2': power-loss acts on a node's disk, and pulsar keeps no message there: on a local cluster node=N, leader and any-follower name the brokers (1 to 3), and the bookies hold the messages: name one, node=bookie-1 to bookie-3, or node=all for every bookie (see java -jar bench-all.jar e2e --help)",
            "--brokers 3 --fault disk-full@1s:for=1s:node=broker-2|error: --fault 'disk-full@1s:for=1s:node=broker-2': disk-full acts on a node's disk, and pulsar keeps no message there: on a local cluster node=N, leader and any-follower name the brokers (1 to 3), and the bookies hold the messages: name one, node=bookie-1 to bookie-3, or node=all for every bookie (see java -jar bench-all.jar e2e --help)",
            "--url pulsar://127.0.0.1:1 --fault kill@1s:node=bookie-2|error: --fault 'kill@1s:node=bookie-2': kill acts on a broker the suite starts, not on one given with --url; use exec@TIME='COMMAND' to run a command that acts on yours (see java -jar bench-all.jar e2e --help)",
            "--pulsar-auth cookie|error: Invalid value for option '--pulsar-auth': must be basic or token, got 'cookie' (see java -jar bench-all.jar e2e --help)",
            "--pulsar-token-file token.jwt|error: --pulsar-token-file logs in to a Pulsar given with --url; the suite's secured Pulsar has its own token: --secure --pulsar-auth token",
            "--url pulsar://127.0.0.1:1 --pulsar-auth token|error: --pulsar-auth token: the token login is the suite's secured Pulsar's; add --secure, or log in to a broker of yours with --url and --pulsar-token-file",
            "--url pulsar://127.0.0.1:1 --pulsar-token-file no-such.jwt|error: --pulsar-token-file: no such file no-such.jwt",
            "--pulsar-batching fast|error: Invalid value for option '--pulsar-batching': must be off, default or the longest delay of a batch such as 100us or 5ms, got 'fast' (see java -jar bench-all.jar e2e --help)",
            "--pulsar-subscription-type round_robin|error: Invalid value for option '--pulsar-subscription-type': must be exclusive, shared, failover or key_shared, got 'round_robin' (see java -jar bench-all.jar e2e --help)",
            "--pulsar-partitions -1|error: --pulsar-partitions must be 0 (a non-partitioned topic) to 1000, got -1",
            "--url http://127.0.0.1:1|error: --url must be Pulsar's service URL, pulsar://HOST:PORT or pulsar+ssl://HOST:PORT, got 'http://127.0.0.1:1'",
            "--url pulsar://127.0.0.1:1 --pulsar-admin-url http://127.0.0.1:1|error: --pulsar-admin-url: nothing answers at http://127.0.0.1:1; give the broker's web service (http://HOST:8080), or omit --url to start a local Pulsar",
    })
    void badInputIsOneLineNamingTheFlag(String args, String expected) {
        List<String> all = new java.util.ArrayList<>(List.of("e2e", "--system", "pulsar", "--output",
                dir.resolve("out").toString()));
        all.addAll(List.of(args.split(" ")));
        CliRun run = CliRun.of(all.toArray(new String[0]));
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(List.of(expected), run.err.lines().filter(l -> l.startsWith("error")).toList(), run.toString());
        assertFalse(run.err.contains("starting a local"), "refused before any broker starts: " + run.err);
    }

    @Test
    void theBrokerCommandPrintsAUrlThatAnswersWithTheAdminUrlAndStopsCleanly() throws Exception {
        CliRun run = CliRun.of("broker", "pulsar", "--stop-after", "1s", "--logs", dir.resolve("logs").toString());
        assertEquals(0, run.exitCode, run.toString());
        String url = run.out.trim();
        assertTrue(url.matches("pulsar://127\\.0\\.0\\.1:\\d+"), run.out);
        int port = Integer.parseInt(url.substring(url.lastIndexOf(':') + 1));
        assertFalse(accepts(port), "the broker is stopped when the command ends");
        assertTrue(run.err.contains("measure it with: e2e --system pulsar --url " + url
                + " --pulsar-admin-url http://127.0.0.1:"), run.err);
        assertTrue(run.err.contains("pulsar 4.0.7 is running with 1 node"), run.err);
        assertTrue(Files.exists(dir.resolve("logs").resolve("pulsar-1.log")));
    }
}
