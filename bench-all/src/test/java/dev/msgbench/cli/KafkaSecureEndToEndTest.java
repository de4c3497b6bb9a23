package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.net.Placement;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.security.ThrowawayPki;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.kafka.broker.KafkaClusterSpec;
import dev.msgbench.kafka.broker.LocalKafkaCluster;

/**
 * e2e and throughput against secured Kafka: local brokers started with --secure, and a secured
 * cluster this test starts itself, reached with --url and the trust and login flags as a cluster
 * the suite did not start. Every outcome is searched for the password.
 */
@NeedsBroker
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class KafkaSecureEndToEndTest {

    private static final String PASSWORD = "kafka-known-Secret-4711";
    private static final String WRONG_PASSWORD = "kafka-wrong-Secret-0815";

    private static LocalKafkaCluster cluster;

    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSecuredCluster() {
        cluster = LocalKafkaCluster.start(KafkaClusterSpec.of(BrokerSpec.defaults()
                .withSecurity(BrokerSecurity.generated().withPassword(Secret.of(PASSWORD)))));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void e2eWithSecureStartsASecuredBrokerLosesNothingAndNeverShowsThePassword() throws Exception {
        Path out = dir.resolve("secure");
        CliRun run = CliRun.of("e2e", "--system", "kafka", "--secure", "--password-file", passwordFile(PASSWORD).toString(),
                "--rate", "300", "--duration", "2s", "--warmup", "1s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(900, r.get("counts").get("received").asLong(), "3 s at 300/s: the warm-up counts too");
        assertEquals(0, ResultTrees.lost(r));
        assertEquals("TLS, user msgbench, password (SCRAM-SHA-512)", r.get("settings").get("security").asText());
        assertTrue(Files.list(out.resolve("broker-logs")).findAny().isPresent(), "the broker logs are searched too");
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    /** Against the class's secured cluster: the secured local start is e2e's above, and a start costs 10 s or more. */
    @Test
    void throughputOverTlsWithALoginSendsEveryMessage() throws Exception {
        Path out = dir.resolve("throughput");
        CliRun run = CliRun.of("throughput", "--system", "kafka", "--url", cluster.url(), "--user", "msgbench",
                "--password-file", passwordFile(PASSWORD).toString(), "--ca",
                cluster.localSecurity().pki().caFile().toString(), "--messages", "20000", "--size", "100B",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), run.toString());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals("TLS, user msgbench, password (SCRAM-SHA-512)", r.get("settings").get("security").asText());
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    @Test
    void e2eReachesASecuredClusterItDidNotStartWithTheTrustAndLoginFlags() throws Exception {
        Path out = dir.resolve("url");
        CliRun run = remote(out, cluster.url(), PASSWORD, true, "--sasl-mechanism", "SCRAM-SHA-256");

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(300, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals("TLS, user msgbench, password (SCRAM-SHA-256)", r.get("settings").get("security").asText());
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    @Test
    void aClientConfigFileAloneReachesTheSecuredClusterAsKafkasToolsDo() throws Exception {
        Path config = dir.resolve("client.properties");
        Files.writeString(config, String.join("\n",
                "security.protocol=SASL_SSL",
                "sasl.mechanism=PLAIN",
                "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"msgbench\" "
                        + "password=\"" + PASSWORD + "\";",
                "ssl.truststore.type=PEM",
                "ssl.truststore.location=" + cluster.localSecurity().pki().caFile(), ""));
        Path out = dir.resolve("client-config");
        CliRun run = CliRun.of("e2e", "--system", "kafka", "--url", cluster.url(), "--client-config", config.toString(),
                "--rate", "300", "--duration", "1s", "--warmup", "0s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(300, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    @Test
    void aWrongPasswordIsOneLineAndNeitherPasswordShows() throws Exception {
        Path out = dir.resolve("refused");
        CliRun run = remote(out, cluster.url(), WRONG_PASSWORD, true);

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: kafka at " + cluster.url() + " refused the login of user 'msgbench' (SCRAM-SHA-512): wrong user or "
                + "password", lastLine(run.err), run.toString());
        SecretLeaks.assertAbsent(WRONG_PASSWORD, run, out);
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    @Test
    void anUnreachableServerIsOneLineWithoutThePassword() throws Exception {
        Path out = dir.resolve("unreachable");
        CliRun run = remote(out, "127.0.0.1:1", PASSWORD, true);

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(lastLine(run.err).startsWith("error: --bootstrap-servers: no Kafka broker answered at 127.0.0.1:1 within "),
                run.toString());
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    @Test
    void aCertificateFromAnotherAuthorityIsOneLineAskingForTheCa() throws Exception {
        Path otherCa = ThrowawayPki.create(dir.resolve("other-ca"), Placement.LOOPBACK).caFile();
        Path out = dir.resolve("untrusted");
        CliRun run = remote(out, cluster.url(), PASSWORD, false, "--ca", otherCa.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: kafka at " + cluster.url() + ": certificate not trusted: give --ca with the authority that signed it",
                lastLine(run.err), run.toString());
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    /** e2e with --url, --user msgbench and the password in a file; with the cluster's CA when {@code trust}. */
    private CliRun remote(Path out, String url, String password, boolean trust, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("e2e", "--system", "kafka", "--url", url, "--user", "msgbench",
                "--password-file", passwordFile(password).toString(), "--rate", "300", "--duration", "1s",
                "--warmup", "0s", "--output", out.toString()));
        if (trust) {
            args.addAll(List.of("--ca", cluster.localSecurity().pki().caFile().toString()));
        }
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    private Path passwordFile(String password) throws Exception {
        Path file = Files.createTempFile(dir, "password", "");
        Files.writeString(file, password + "\n");
        return file;
    }

    private static String lastLine(String text) {
        String[] lines = text.strip().split("\\R");
        return lines[lines.length - 1];
    }
}
