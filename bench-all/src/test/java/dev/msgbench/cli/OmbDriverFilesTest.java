package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenMessaging Benchmark driver files (run WORKLOAD --driver DRIVER), written here as OMB's stock
 * Kafka and Pulsar files are: each field becomes a flag of the cell, or a warning, or a one-line
 * refusal with its line.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OmbDriverFilesTest {

    private static final String NL = System.lineSeparator();

    private static final String WORKLOAD = "name: x\ntopics: 1\npartitionsPerTopic: 4\nmessageSize: 100\n"
            + "subscriptionsPerTopic: 1\nconsumerPerSubscription: 2\nproducersPerTopic: 1\nproducerRate: 1000\n"
            + "testDurationMinutes: 2\nwarmupDurationMinutes: 1\n";

    private static final String PULSAR = """
            name: Pulsar
            driverClass: io.openmessaging.benchmark.driver.pulsar.PulsarBenchmarkDriver
            client:
              serviceUrl: pulsar://localhost:6650
              httpUrl: http://localhost:8080
              ioThreads: 8
              namespacePrefix: benchmark/ns
              topicType: persistent
              persistence:
                ensembleSize: 3
                writeQuorum: 3
                ackQuorum: 2
                deduplicationEnabled: false
              tlsTrustCertsFilePath:
              authentication:
                plugin:
                data:
            producer:
              batchingEnabled: true
              batchingMaxPublishDelayMs: 1
              blockIfQueueFull: true
              pendingQueueSize: 10000
            consumer:
              subscriptionType: Key_Shared
              subscriptionMode: Durable
            """;

    private static final String KAFKA = """
            name: Kafka
            driverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver
            replicationFactor: 3
            reset: true
            topicConfig: |
              min.insync.replicas=2
            commonConfig: |
              bootstrap.servers=localhost:9092
              request.timeout.ms=120000
            producerConfig: |
              acks=-1
              linger.ms=1
            consumerConfig: |
              auto.offset.reset=earliest
            """;

    @TempDir
    Path dir;

    @Test
    void pulsarsStockFileRunsOnALocalClusterWithItsQuorumsBatchingAndSubscriptionType() throws Exception {
        Path driver = write("pulsar.yaml", PULSAR);

        CliRun run = CliRun.of("run", workload(), "--driver", driver.toString(), "--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(" e2e --system pulsar --pulsar-partitions 4 --size 100 --producers 1 --consumers 2 "
                + "--rate 1000 --warmup 1m --duration 2m --brokers 3 --pulsar-batching 1ms --pulsar-subscription-type "
                + "key_shared --broker-prop managedLedgerDefaultEnsembleSize=3 --broker-prop "
                + "managedLedgerDefaultWriteQuorum=3 --broker-prop managedLedgerDefaultAckQuorum=2" + NL), run.out);
        assertEquals("warning: " + driver + ":4: serviceUrl pulsar://localhost:6650 is OMB's placeholder: the suite "
                + "starts its own Pulsar (--set url=pulsar://localhost:6650 to use one running there)" + NL
                + "warning: " + driver + ":6: ioThreads ignored: the suite's client keeps Pulsar's own defaults" + NL
                + "warning: " + driver + ":7: namespacePrefix ignored: the suite makes its topics in a namespace of its "
                + "own" + NL
                + "warning: " + driver + ":10: ensembleSize 3 runs on a local cluster of 3 brokers and 3 bookies "
                + "(--brokers 3)" + NL
                + "warning: " + driver + ":22: pendingQueueSize ignored: the producers keep the client's default, a "
                + "queue bounded by its memory limit" + NL, run.err);
    }

    @Test
    void pulsarAtAnAddressOfItsOwnTakesItsAckQuorumAsAcksAndItsWebServiceAsTheAdminUrl() throws Exception {
        Path driver = write("pulsar.yaml", PULSAR.replace("pulsar://localhost:6650", "pulsar://10.1.2.3:6650")
                .replace("http://localhost:8080", "http://10.1.2.3:8080").replace("ackQuorum: 2", "ackQuorum: 3")
                .replace("batchingEnabled: true", "batchingEnabled: false")
                .replace("  subscriptionType: Key_Shared\n", ""));

        CliRun run = CliRun.of("run", workload(), "--driver", driver.toString(), "--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(" --duration 2m --url pulsar://10.1.2.3:6650 --pulsar-admin-url http://10.1.2.3:8080 "
                + "--acks all --pulsar-batching off --pulsar-subscription-type failover" + NL), run.out);
        assertTrue(run.err.contains("warning: " + driver + ":10: ensembleSize 3 and writeQuorum 3 are the broker's own "
                + "(the namespace takes the broker's defaults; result.json says what ran)" + NL), run.err);
    }

    @Test
    void quorumsTheFileLeavesOutAreOmbsDefaultsSaidAtTheSectionsLine() throws Exception {
        Path driver = write("pulsar.yaml", PULSAR.replace("    ensembleSize: 3\n    writeQuorum: 3\n    ackQuorum: 2\n",
                "    ackQuorum: 1\n"));

        CliRun run = CliRun.of("run", workload(), "--driver", driver.toString(), "--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(" --broker-prop managedLedgerDefaultEnsembleSize=3 --broker-prop "
                + "managedLedgerDefaultWriteQuorum=3 --broker-prop managedLedgerDefaultAckQuorum=1" + NL), run.out);
        assertTrue(run.err.contains("warning: " + driver + ":9: ensembleSize 3 runs on a local cluster of 3 brokers"),
                run.err);
    }

    @Test
    void anAckQuorumThatAcksCannotSayOnABrokerOfYourOwnIsRefusedWithItsLine() throws Exception {
        Path driver = write("pulsar.yaml", PULSAR);

        CliRun run = CliRun.of("run", workload(), "--driver", driver.toString(), "--set", "url=pulsar://10.1.2.3:6650",
                "--dry-run");

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + driver + ":12: ackQuorum 2 of writeQuorum 3: on a broker the suite did not start, --acks "
                + "sets the ack quorum to 1 or to the write quorum; write one of them" + NL, run.err);
    }

    @Test
    void kafkasStockFileRunsOnALocalClusterWithItsClientPropertiesAndTopicConfig() throws Exception {
        Path driver = write("kafka.yaml", KAFKA);

        CliRun run = CliRun.of("run", workload(), "--driver", driver.toString(), "--dry-run");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains(" e2e --system kafka --partitions 4 --size 100 --producers 1 --consumers 2 --rate 1000 "
                + "--warmup 1m --duration 2m --replication-factor 3 --brokers 3 --acks all --producer-prop "
                + "request.timeout.ms=120000 --producer-prop linger.ms=1 --consumer-prop request.timeout.ms=120000 "
                + "--consumer-prop auto.offset.reset=earliest --broker-prop min.insync.replicas=2" + NL), run.out);
        assertEquals("warning: " + driver + ":7: bootstrap.servers=localhost:9092 is OMB's placeholder: the suite starts "
                + "its own Kafka (--set url=localhost:9092 to use one running there)" + NL
                + "warning: " + driver + ":3: replicationFactor 3 runs on a local cluster of 3 brokers (--brokers 3)" + NL
                + "warning: " + driver + ":4: reset ignored: every run here writes to topics of its own" + NL
                + "warning: " + driver + ":5: topicConfig min.insync.replicas set as the local brokers' defaults "
                + "(--broker-prop), which every topic of the run takes" + NL, run.err);
    }

    @Test
    void whatCannotRunIsRefusedInOneLineNamingTheFieldAndItsLine() throws Exception {
        assertRefused(PULSAR.replace("deduplicationEnabled: false", "deduplicationEnabled: true"), ":13: "
                + "deduplicationEnabled: true is not offered here: the suite counts duplicated deliveries itself, and a "
                + "broker that drops them would hide what it counts");
        assertRefused(PULSAR.replace("topicType: persistent", "topicType: non-persistent"), ":8: topicType "
                + "non-persistent: only persistent topics are run here (a non-persistent topic keeps nothing, so no loss "
                + "could be told from a drop)");
        assertRefused(PULSAR.replace("    plugin:\n", "    plugin: org.apache.pulsar.client.impl.auth.AuthenticationToken\n"),
                ":15: authentication plugin org.apache.pulsar.client.impl.auth.AuthenticationToken: give the login as "
                        + "--set user=NAME and --set password-file=FILE instead");
        assertRefused(PULSAR.replace("ioThreads: 8", "ioThread: 8"), ":6: unknown key 'ioThread' in 'client' (its keys: "
                + "serviceUrl, httpUrl, ioThreads, connectionsPerBroker, namespacePrefix, clusterName, topicType, "
                + "persistence, astraStreaming, tlsAllowInsecureConnection, tlsEnableHostnameVerification, "
                + "tlsTrustCertsFilePath, authentication)");
        assertRefused(KAFKA.replace("KafkaBenchmarkDriver", "RocketMQBenchmarkDriver").replace("kafka.Rocket", "rocketmq.Rocket"),
                ":2: driverClass io.openmessaging.benchmark.driver.rocketmq.RocketMQBenchmarkDriver: the driver files read "
                        + "here are Kafka's (io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver) and Pulsar's "
                        + "(io.openmessaging.benchmark.driver.pulsar.PulsarBenchmarkDriver); for another system give "
                        + "--system and its flags with --set");
    }

    @Test
    void theDriverNamesTheSystemAndAppliesToOpenMessagingBenchmarkFilesOnly() throws Exception {
        Path driver = write("kafka.yaml", KAFKA);

        CliRun withSystem = CliRun.of("run", workload(), "--driver", driver.toString(), "--system", "nats", "--dry-run");
        Path ours = write("ours.yaml", "name: ours\ncells:\n  - {system: kafka, rate: 100}\n");
        CliRun notOmb = CliRun.of("run", ours.toString(), "--driver", driver.toString(), "--dry-run");
        CliRun missing = CliRun.of("run", workload(), "--driver", dir.resolve("none.yaml").toString(), "--dry-run");

        assertEquals(2, withSystem.exitCode, withSystem.toString());
        assertEquals("error: --driver " + driver + " names its system (driverClass); leave out --system (see java -jar "
                + "bench-all.jar run --help)" + NL, withSystem.err);
        assertEquals(2, notOmb.exitCode, notOmb.toString());
        assertEquals("error: --driver applies to an OpenMessaging Benchmark workload file; " + ours + " names its own "
                + "systems and flags (see java -jar bench-all.jar run --help)" + NL, notOmb.err);
        assertEquals(2, missing.exitCode, missing.toString());
        assertEquals("error: --driver " + dir.resolve("none.yaml") + ": no such file" + NL, missing.err);
    }

    private void assertRefused(String driverText, String message) throws IOException {
        Path driver = write("driver.yaml", driverText);
        CliRun run = CliRun.of("run", workload(), "--driver", driver.toString(), "--dry-run");
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + driver + message + NL, run.err);
    }

    private String workload() throws IOException {
        return write("workload.yaml", WORKLOAD).toString();
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }
}
