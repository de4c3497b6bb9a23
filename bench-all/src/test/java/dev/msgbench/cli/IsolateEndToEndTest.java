package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/**
 * e2e --isolate as root: the brokers and the load generator on hosts of their own (network
 * namespaces), made and removed by the run, whatever way it ends.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@NeedsBroker
class IsolateEndToEndTest {

    @TempDir
    Path dir;

    /** Every run here makes its namespaces from this JVM, whose pid starts their names. */
    @AfterEach
    void noNamespaceIsLeft() throws Exception {
        assertEquals(List.of(), namespacesOf(ProcessHandle.current().pid()));
    }

    @Test
    void redisRunsOnItsOwnHostBehindRateLimitedLinksAndLosesNothing() throws Exception {
        Path out = dir.resolve("redis");
        CliRun run = CliRun.of("e2e", "--system", "redis", "--isolate", "--link-rate", "1gbit", "--rate", "500",
                "--duration", "2s", "--warmup", "1s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(1_500, r.get("counts").get("received").asLong());
        JsonNode isolation = r.get("broker").get("isolation");
        String node = isolation.get("nodes").get(0).asText();
        assertTrue(node.matches("10\\.77\\.\\d+\\.1"), node);
        assertEquals(node.replaceAll("\\.1$", ".100"), isolation.get("client").asText());
        assertEquals(1_000_000_000L, isolation.get("linkShaping").get("rateBitsPerSec").asLong());
        assertEquals(false, isolation.get("netem").asBoolean());
        assertTrue(r.get("broker").get("url").asText().startsWith("redis://" + node + ":"), r.toString());
        assertTrue(run.out.contains("hosts: separate hosts (--isolate): client " + isolation.get("client").asText()
                + ", broker node " + node + " on " + isolation.get("subnet").asText()
                + "; each link: rate 1000000000bit (tbf, burst 500000 B)"), run.out);
    }

    @Test
    void aPartitionCutsANatsNodeOffForItsLengthAndIsInTheTimeline() throws Exception {
        Path out = dir.resolve("nats");
        CliRun run = CliRun.of("e2e", "--system", "nats", "--brokers", "3", "--isolate", "--rate", "500",
                "--duration", "6s", "--warmup", "1s", "--fault", "partition=2s@2s:node=2", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(3, r.get("broker").get("isolation").get("nodes").size());
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals("partition", event.get("kind").asText());
        assertEquals(2, event.get("node").asInt());
        assertEquals("done", event.get("outcome").asText());
        double lasted = event.get("endedAtSeconds").asDouble() - event.get("askedAtSeconds").asDouble();
        assertTrue(lasted >= 2.0 && lasted < 4.0, "partition lasted " + lasted + " s");
    }

    /**
     * Pulsar's standalone in a host of its own: the client and the suite's admin calls reach it over
     * the link at the host's address, which its lookups answer too (the client follows them).
     */
    @Test
    void aPulsarStandaloneOnItsOwnHostIsReachedAtItsHostsAddressAndLosesNothing() throws Exception {
        Path out = dir.resolve("pulsar");
        CliRun run = CliRun.of("e2e", "--system", "pulsar", "--isolate", "--rate", "500", "--duration", "2s",
                "--warmup", "1s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(1_500, r.get("counts").get("received").asLong());
        String node = r.get("broker").get("isolation").get("nodes").get(0).asText();
        assertTrue(node.matches("10\\.77\\.\\d+\\.1"), node);
        assertTrue(r.get("broker").get("url").asText().matches("pulsar://" + node.replace(".", "\\.") + ":\\d+"),
                r.toString());
        assertTrue(r.get("settings").get("adminUrl").asText().matches("http://" + node.replace(".", "\\.")
                + ":\\d+"), r.toString());
        assertEquals(1, r.get("durability").get("bookkeeperEnsemble").asInt(), "read back over the link");
    }

    /**
     * Each system's broker on a host of its own, secured: the throwaway certificate names the
     * hosts' addresses, which the clients check (the plain case is the same path without TLS).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nats", "redis", "kafka", "rabbitmq"})
    void aSecuredBrokerOnItsOwnHostIsReachedOverTlsWithItsLogin(String system) throws Exception {
        Path out = dir.resolve("secure-" + system);
        CliRun run = CliRun.of("e2e", "--system", system, "--isolate", "--secure", "--rate", "500",
                "--duration", "2s", "--warmup", "1s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(1_500, r.get("counts").get("received").asLong());
        assertTrue(r.get("broker").get("security").asText().startsWith("TLS, user msgbench"), r.toString());
        String node = r.get("broker").get("isolation").get("nodes").get(0).asText();
        assertTrue(r.get("broker").get("url").asText().contains(node + ":"), r.toString());
    }

    /** This machine's kernel has no netem; the check that the delay shows where it has is TopologyTest's. */
    @Test
    void aLinkDelayIsRefusedBeforeAnyBrokerStartsOnAKernelWithoutNetem() {
        CliRun run = CliRun.of("e2e", "--system", "redis", "--isolate", "--link-delay", "1ms", "--duration", "2s",
                "--output", dir.resolve("delay").toString());

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.endsWith("error: --link-delay needs the kernel's netem qdisc (sch_netem), which this kernel "
                + "does not have; run without --link-delay, --link-jitter and --link-loss (--link-rate works without "
                + "netem)\n"), run.err);
        assertTrue(!run.err.contains("starting a local"), run.err);
    }

    /** broker --isolate takes e2e's link flags, and refuses netem's as e2e does on this kernel, before any broker starts. */
    @Test
    void aBrokerOnItsOwnHostRefusesALinkDelayOnAKernelWithoutNetem() {
        CliRun run = CliRun.of("broker", "nats", "--isolate", "--link-delay", "1ms", "--stop-after", "2s");

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.endsWith("error: --link-delay needs the kernel's netem qdisc (sch_netem), which this kernel "
                + "does not have; run without --link-delay, --link-jitter and --link-loss (--link-rate works without "
                + "netem)\n"), run.err);
        assertTrue(run.out.isEmpty(), run.out);
    }

    /** Every client host a worker runs in gets the rate limit too, not only the broker's. */
    @Test
    void aBrokerOnItsOwnHostShapesEveryClientHostsLinkWithLinkRate() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "broker", "nats", "--isolate", "--clients", "2", "--link-rate", "1gbit", "--stop-after", "60s")
                .redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            String secondClient = null;
            while (secondClient == null && (line = reader.readLine()) != null) {
                lines.add(line);
                if (line.startsWith("worker 1: ip netns exec ")) {
                    secondClient = line.substring("worker 1: ip netns exec ".length());
                }
            }
            assertTrue(secondClient != null, String.join("\n", lines));
            assertTrue(String.join("\n", lines).contains("each link: rate 1000000000bit (tbf"), String.join("\n", lines));
            Process tc = new ProcessBuilder("tc", "-n", secondClient, "qdisc", "show", "dev", "eth0")
                    .redirectErrorStream(true).start();
            String qdisc = new String(tc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, tc.waitFor(), qdisc);
            assertTrue(qdisc.startsWith("qdisc tbf ") && qdisc.contains("rate 1Gbit"), qdisc);
        } finally {
            process.destroy();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), String.join("\n", lines));
        }
        assertEquals(List.of(), namespacesOf(process.pid()));
    }

    /**
     * Three nodes on three hosts form one cluster (each its own epmd, long names), replicate the
     * queue, and ride through a node's partition.
     */
    @Test
    void aRabbitMqClusterOnThreeHostsReplicatesItsQuorumQueueOnEveryNodeAndLosesNothingThroughAPartition()
            throws Exception {
        Path out = dir.resolve("rabbitmq-cluster");
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq", "--brokers", "3", "--isolate", "--acks", "all",
                "--rate", "200", "--duration", "6s", "--warmup", "1s", "--fault", "partition=2s@3s:node=2",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(1_400, r.get("counts").get("acknowledged").asLong());
        JsonNode event = r.get("faults").get(0).get("event");
        assertEquals("partition", event.get("kind").asText());
        assertEquals(2, event.get("node").asInt());
        assertEquals("done", event.get("outcome").asText(), event.toString());
        JsonNode d = r.get("durability");
        assertEquals("quorum", d.get("queueType").asText());
        assertEquals(3, d.get("replicas").asInt(), "read back from the broker with rabbitmqctl in a node's host");
        JsonNode nodes = r.get("broker").get("isolation").get("nodes");
        assertEquals(3, nodes.size());
        for (int i = 0; i < 3; i++) {
            assertTrue(r.get("broker").get("url").asText().contains("amqp://" + nodes.get(i).asText() + ":"),
                    r.toString());
        }
    }

    @Test
    void linkShapingAndPartitionsWithoutIsolateAreRefused() {
        CliRun rate = CliRun.of("e2e", "--system", "redis", "--link-rate", "1gbit");
        assertEquals(2, rate.exitCode, rate.toString());
        assertTrue(rate.err.startsWith("error: --link-rate shapes the links between separate hosts; add --isolate (see "),
                rate.err);

        CliRun partition = CliRun.of("e2e", "--system", "nats", "--fault", "partition=2s@2s");
        assertEquals(2, partition.exitCode, partition.toString());
        assertTrue(partition.err.startsWith("error: --fault 'partition=2s@2s': a partition cuts a node's link, which "
                + "only exists with --isolate; add --isolate (see "), partition.err);
    }

    @Test
    void aBrokerThatFailsToStartLeavesNoNamespace() {
        CliRun run = CliRun.of("e2e", "--system", "redis", "--isolate", "--broker-prop", "appendonly=maybe",
                "--duration", "2s", "--output", dir.resolve("failed").toString());

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("redis node 1"), run.err);
    }

    @Test
    void ctrlCEndsTheRunAndRemovesEveryNamespace() throws Exception {
        Path out = dir.resolve("interrupted");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // as InterruptTest: a process group of its own, which Ctrl+C signals as a whole
        Process process = new ProcessBuilder("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\"",
                "setsid", java, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "e2e", "--system", "redis", "--isolate", "--duration", "60s", "--warmup", "0s", "--rate", "200",
                "--output", out.toString())
                .redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(line);
                if (line.startsWith("sending: ")) {
                    break;
                }
            }
            assertEquals(3, namespacesOf(process.pid()).size(), String.join("\n", lines));
            new ProcessBuilder("kill", "-INT", "--", "-" + process.pid()).start().waitFor();
            while ((line = reader.readLine()) != null) {
                lines.add(line);
            }
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join("\n", lines));
        }
        assertEquals(ExitCode.INTERRUPTED.code(), process.exitValue(), String.join("\n", lines));
        assertEquals(List.of(), namespacesOf(process.pid()));
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("interrupted", r.get("status").asText());
    }

    /** The network namespaces that the runs of process {@code pid} made and left. */
    static List<String> namespacesOf(long pid) throws IOException, InterruptedException {
        Process list = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String text = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, list.waitFor(), text);
        return Arrays.stream(text.split("\n")).map(l -> l.strip().split("\\s+")[0])
                .filter(n -> n.startsWith("mb" + pid + "x")).collect(Collectors.toList());
    }
}
