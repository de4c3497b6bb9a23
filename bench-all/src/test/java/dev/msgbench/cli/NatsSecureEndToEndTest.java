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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;

/**
 * NATS and JetStream against secured servers: local ones started with --secure, and one this test
 * starts, reached with --url and the trust and login flags; a known password is then searched for
 * in all that each outcome printed and wrote.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@NeedsBroker
class NatsSecureEndToEndTest {

    private static final String PASSWORD = "natsE2eSecret" + System.nanoTime();
    private static final String WRONG_PASSWORD = "natsE2eWrong" + System.nanoTime();

    @TempDir
    static Path shared;

    private static LocalNatsServer server;
    private static Path passwordFile;
    private static Path wrongPasswordFile;

    @TempDir
    Path dir;

    @BeforeAll
    static void startASecuredServerTheRunsDidNotStart() throws Exception {
        server = LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults().withLogDir(shared.resolve("logs"))
                .withSecurity(BrokerSecurity.generated().withPassword(Secret.of(PASSWORD)))).withJetStream(true));
        passwordFile = Files.writeString(shared.resolve("password"), PASSWORD + "\n");
        wrongPasswordFile = Files.writeString(shared.resolve("wrong"), WRONG_PASSWORD + "\n");
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static String ca() {
        return server.localSecurity().pki().caFile().toString();
    }

    private static JsonNode result(Path out) throws Exception {
        return ResultFiles.json().readTree(out.resolve("result.json").toFile());
    }

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    private static List<String> args(String... first) {
        return new ArrayList<>(List.of(first));
    }

    @ParameterizedTest
    @ValueSource(strings = {"nats", "jetstream"})
    void e2eSecureRunsOverTlsWithALoginAndLosesNothing(String system) throws Exception {
        Path out = dir.resolve("e2e");
        CliRun run = run("e2e", "--system", system, "--secure", "--rate", "200", "--duration", "1s", "--warmup", "0s",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.err.contains(" ready at tls://127.0.0.1:"), run.err);
        JsonNode r = result(out);
        assertEquals(200, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals("TLS, user msgbench, password", r.get("broker").get("security").asText());
    }

    @Test
    void aSecuredClusterOfThreeServesTlsOnEveryNode() throws Exception {
        Path out = dir.resolve("cluster");
        CliRun run = run("e2e", "--system", "nats", "--secure", "--brokers", "3", "--producers", "3", "--consumers", "3",
                "--rate", "300", "--duration", "1s", "--warmup", "0s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.err.matches("(?s).*ready at tls://127\\.0\\.0\\.1:\\d+,tls://127\\.0\\.0\\.1:\\d+,tls://127\\.0\\.0\\.1:\\d+\n.*"),
                run.err);
        assertEquals(0, ResultTrees.lost(result(out)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"nats", "jetstream"})
    void throughputSecureReceivesEveryMessage(String system) throws Exception {
        Path out = dir.resolve("throughput");
        CliRun run = run("throughput", "--system", system, "--secure", "--messages", "5000", "--size", "100",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = result(out);
        assertEquals(5000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
    }

    @ParameterizedTest
    @ValueSource(strings = {"nats", "jetstream"})
    void aSecuredServerGivenWithUrlIsReachedWithTheCaTheUserAndThePasswordFileWithoutLeakingIt(String system)
            throws Exception {
        Path out = dir.resolve("remote");
        CliRun run = run("e2e", "--system", system, "--url", server.url(), "--ca", ca(), "--user", "msgbench",
                "--password-file", passwordFile.toString(), "--rate", "200", "--duration", "1s", "--warmup", "0s",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = result(out);
        assertEquals(200, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(false, r.get("broker").get("local").asBoolean());
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    @Test
    void aRefusedLoginIsOneLineWithExitTwoAndNoPassword() throws Exception {
        Path out = dir.resolve("refused");
        CliRun run = run("e2e", "--system", "nats", "--url", server.url(), "--ca", ca(), "--user", "msgbench",
                "--password-file", wrongPasswordFile.toString(), "--rate", "100", "--duration", "1s",
                "--output", out.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("error: --url: the NATS server at " + server.url() + " refused the login "
                + "(Authorization Violation); check --user and --password-file (or the token, NKey or credentials file)\n"),
                run.toString());
        assertEquals(0, run.err.lines().filter(l -> l.startsWith("\tat ")).count(), run.err);
        SecretLeaks.assertAbsent(WRONG_PASSWORD, run, out);
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    @Test
    void anUntrustedCertificateIsOneLineNamingCaWithExitTwoAndNoPassword() throws Exception {
        Path out = dir.resolve("untrusted");
        CliRun run = run("e2e", "--system", "jetstream", "--url", server.url(), "--user", "msgbench",
                "--password-file", passwordFile.toString(), "--rate", "100", "--duration", "1s",
                "--output", out.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("error: --url: TLS with the NATS server at " + server.url() + " failed: its "
                + "certificate is not signed by an authority this client trusts; give the authority that signed its "
                + "certificate with --ca (a PEM file)\n"), run.toString());
        assertEquals(0, run.err.lines().filter(l -> l.startsWith("\tat ")).count(), run.err);
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    @Test
    void anUnreachableServerWithAPasswordInItsUrlDoesNotShowThePassword() throws Exception {
        Path out = dir.resolve("unreachable");
        CliRun run = run("e2e", "--system", "nats", "--url", "nats://msgbench:" + PASSWORD + "@127.0.0.1:1",
                "--rate", "100", "--duration", "1s", "--output", out.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("error: --url: no NATS server answered at nats://***@127.0.0.1:1 within 5 s; "
                + "check the address, or omit --url to start a local server\n"), run.toString());
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    @Test
    void theDirectClientRefusesASecuredServerSayingToUseJnats() throws Exception {
        CliRun run = run("e2e", "--system", "nats", "--nats-client", "direct", "--url", server.url(), "--ca", ca(),
                "--user", "msgbench", "--password-file", passwordFile.toString(), "--rate", "100", "--duration", "1s",
                "--output", dir.resolve("direct").toString());

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("error: --nats-client direct speaks plain nats:// without a login (but for one in "
                + "the URL); use --nats-client jnats for TLS, --user, tokens, NKeys and credentials files\n"),
                run.toString());
    }

    @Test
    void aTokenFromNatsTokenFileLogsInToAServerThatWantsOneWithoutShowingIt() throws Exception {
        String token = "natsE2eToken" + System.nanoTime();
        Path tokenFile = Files.writeString(dir.resolve("token"), token + "\n");
        Path out = dir.resolve("token-run");
        try (LocalNatsServer tokenServer = LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults()
                .withLogDir(dir.resolve("logs"))
                .withProps(java.util.Map.of("authorization.token", "\"" + token + "\""))))) {
            CliRun refused = run("e2e", "--system", "nats", "--url", tokenServer.url(), "--rate", "100", "--duration",
                    "1s", "--output", dir.resolve("no-token").toString());
            assertEquals(2, refused.exitCode, refused.toString());
            assertTrue(refused.err.contains("refused the login (Authorization Violation)"), refused.toString());

            CliRun run = run("e2e", "--system", "nats", "--url", tokenServer.url(), "--nats-token-file",
                    tokenFile.toString(), "--rate", "100", "--duration", "1s", "--warmup", "0s", "--output", out.toString());
            assertEquals(0, run.exitCode, run.toString());
            assertEquals(0, ResultTrees.lost(result(out)));
            SecretLeaks.assertAbsent(token, run, out);
        }
    }

    @Test
    void aNatsLoginFlagWithALocalServerIsRefused() {
        CliRun run = run("e2e", "--system", "jetstream", "--secure", "--nats-token-file", passwordFile.toString(),
                "--rate", "100", "--duration", "1s", "--output", dir.resolve("token").toString());

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("error: --nats-token-file logs in to a NATS server given with --url; a local "
                + "server started with --secure has its own login"), run.toString());
    }
}
