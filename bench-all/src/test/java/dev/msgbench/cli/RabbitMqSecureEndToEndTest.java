package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.LocalSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RabbitMQ with TLS and a login, through the command line, run in-process: the suite's own
 * secured node (--secure), and a secured node the test starts, reached as one the suite did not
 * start (--url amqps:// with --ca, --user, --password-file), over AMQP and, as rabbitmq-streams,
 * over the stream protocol (--url rabbitmq-stream+tls://). A known password is searched for in
 * everything each run printed and wrote.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@NeedsBroker
class RabbitMqSecureEndToEndTest {

    private static final String PASSWORD = "rabbit-Leak-Check-4Vz9";
    private static final String USER = "bench-user";

    /** Not mutual TLS: --ca and the login are all a client needs. With the stream plugin too, for rabbitmq-streams. */
    private static LocalRabbitMq remote;

    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    @BeforeAll
    @Timeout(90)
    static void startRemoteBroker() {
        remote = LocalRabbitMq.start(RabbitBrokerSpec.of(BrokerSpec.defaults().withLogDir(shared.resolve("remote-logs"))
                .withSecurity(new BrokerSecurity(USER, Secret.of(PASSWORD), false))).withStreams());
    }

    @AfterAll
    static void stopRemoteBroker() {
        if (remote != null) {
            remote.close();
        }
    }

    @Test
    void e2eSecureRunsOverTlsWithTheKnownPasswordAndNothingWrittenOrPrintedHoldsIt() throws Exception {
        String log = secureLocalRun("rabbitmq", "amqps");

        assertTrue(log.contains("Server startup complete"), "the broker's log is kept with the results");
    }

    /** Against the class's secured broker: the secured local start is e2e's above, and a start costs 5 s or more. */
    @Test
    void throughputOverTlsWithALoginLosesNothing() throws Exception {
        Path out = dir.resolve("throughput");
        CliRun run = CliRun.of("throughput", "--system", "rabbitmq", "--url", amqpUrl(), "--ca", ca(), "--user", USER,
                "--password-file", SecretLeaks.passwordFile(dir, PASSWORD).toString(), "--messages", "20000", "--size", "100B",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultTrees.complete(out);
        assertEquals(20_000, r.get("counts").get("sent").asLong());
        assertEquals(20_000, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(0, r.get("counts").get("unsent").asLong());
        assertEquals("TLS, user " + USER + ", password", r.get("broker").get("security").asText(),
                r.get("broker").toString());
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    @Test
    void aSecuredBrokerTheSuiteDidNotStartIsMeasuredWithCaUserAndPasswordFile() throws Exception {
        Path out = dir.resolve("remote");
        CliRun run = remoteRun(out, PASSWORD, "--url", amqpUrl(), "--ca", ca());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultTrees.complete(out);
        assertEquals(600, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(amqpUrl(), r.get("settings").get("url").asText());
        SecretLeaks.assertAbsent(PASSWORD, run, out, remote.logDir());
    }

    @Test
    void aRefusedLoginIsOneLineAndNeitherPasswordShows() throws Exception {
        Path out = dir.resolve("refused");
        String wrong = "wrong-Leak-Check-8Kp3";
        CliRun run = remoteRun(out, wrong, "--url", amqpUrl(), "--ca", ca());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --user: RabbitMQ at " + amqpUrl() + " refused the login of user '" + USER + "' "
                + "(ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker "
                + "logfile.); check --user and --password-file, or the URL's amqp://USER:PASSWORD@HOST"
                + System.lineSeparator(), run.lastErrLine(), run.err);
        SecretLeaks.assertAbsent(wrong, run, out, remote.logDir());
        SecretLeaks.assertAbsent(PASSWORD, run, out, remote.logDir());
    }

    @Test
    void anUntrustedCertificateIsOneLineNamingTheCaFlagAndThePasswordDoesNotShow() throws Exception {
        Path out = dir.resolve("untrusted");
        CliRun run = remoteRun(out, PASSWORD, "--url", amqpUrl());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --ca: the TLS certificate of RabbitMQ at " + amqpUrl() + " is not trusted (unable to "
                + "find valid certification path to requested target); give the authority that signed it with --ca FILE "
                + "(PEM)" + System.lineSeparator(), run.lastErrLine(), run.err);
        SecretLeaks.assertAbsent(PASSWORD, run, out, remote.logDir());
    }

    @Test
    void anUnreachableServerIsOneLineWithoutThePasswordOfItsUrl() throws Exception {
        Path out = dir.resolve("unreachable");
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq", "--url", "amqp://msgbench:" + PASSWORD + "@127.0.0.1:1",
                "--rate", "100", "--duration", "1s", "--warmup", "0s", "--output", out.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --url: no RabbitMQ broker answered at amqp://127.0.0.1:1 within 5 s (Connection refused); "
                + "check the address, or omit --url to start a local broker" + System.lineSeparator(), run.lastErrLine(),
                run.err);
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    @Test
    void theBrokerCommandSecuredPrintsTheAmqpsAddressTheCaAndThePasswordFileButNotThePassword() throws Exception {
        Path logs = dir.resolve("broker-logs");
        CliRun run = CliRun.of("broker", "rabbitmq", "--secure", "--password-file",
                SecretLeaks.passwordFile(dir, PASSWORD).toString(),
                "--stop-after", "1s", "--logs", logs.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.trim().matches("amqps://127\\.0\\.0\\.1:\\d+"), run.out);
        assertTrue(run.err.contains("TLS: trust "), run.err);
        assertTrue(run.err.contains("user msgbench, password in "), run.err);
        assertTrue(run.err.contains("measure it with: e2e --system rabbitmq --url " + run.out.trim() + " --ca "), run.err);
        SecretLeaks.assertAbsent(PASSWORD, run, logs);
    }

    @Test
    void rabbitmqStreamsSecureRunsOverTlsOnTheStreamPortWithTheKnownPassword() throws Exception {
        String log = secureLocalRun("rabbitmq-streams", "rabbitmq-stream+tls");

        assertTrue(log.contains("started Stream TLS listener on 127.0.0.1:"), "the stream listener speaks TLS");
        assertFalse(log.contains("Stream TCP listener"), "and no plain one beside it");
    }

    /**
     * e2e with --secure, a start of its own: over TLS with the known password, which nothing
     * printed or written holds.
     *
     * @return node 1's log, kept with the results
     */
    private String secureLocalRun(String system, String scheme) throws Exception {
        Path out = dir.resolve(system + "-secure");
        CliRun run = CliRun.of("e2e", "--system", system, "--secure", "--password-file",
                SecretLeaks.passwordFile(dir, PASSWORD).toString(),
                "--rate", "300", "--duration", "2s", "--warmup", "1s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultTrees.complete(out);
        assertEquals(900, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        String url = r.get("settings").get("url").asText();
        assertTrue(url.matches(Pattern.quote(scheme + "://127.0.0.1:") + "\\d+"), r.get("settings").toString());
        assertTrue(run.err.contains(" ready at " + url), run.err);
        assertTrue(r.get("broker").get("security").asText().contains("TLS, user msgbench"), r.get("broker").toString());
        SecretLeaks.assertAbsent(PASSWORD, run, out);
        return Files.readString(out.resolve("broker-logs").resolve("rabbitmq-1.log"));
    }

    /** The class's broker, with --url: no start of its own. */
    @Test
    void rabbitmqStreamsOverTlsWithCaUserAndPasswordFileLosesNothing() throws Exception {
        Path out = dir.resolve("streams-remote");
        String url = remote.streamUrl(1);
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq-streams", "--url", url, "--ca", ca(), "--user", USER,
                "--password-file", SecretLeaks.passwordFile(dir, PASSWORD).toString(), "--rate", "300", "--duration",
                "2s", "--warmup", "1s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(url.startsWith("rabbitmq-stream+tls://127.0.0.1:"), url);
        JsonNode r = ResultTrees.complete(out);
        assertEquals(900, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(url, r.get("settings").get("url").asText());
        assertEquals("TLS, user " + USER + ", password", r.get("broker").get("security").asText(),
                r.get("broker").toString());
        SecretLeaks.assertAbsent(PASSWORD, run, out, remote.logDir());
    }

    @Test
    void rabbitmqStreamsRefusedLoginAndUntrustedCertificateAreOneLineEachWithoutThePassword() throws Exception {
        String url = remote.streamUrl(1);
        String wrong = "wrong-Leak-Check-2Qx7";
        Path refusedOut = dir.resolve("streams-refused");
        CliRun refused = CliRun.of("e2e", "--system", "rabbitmq-streams", "--url", url, "--ca", ca(), "--user", USER,
                "--password-file", SecretLeaks.passwordFile(dir, wrong).toString(), "--rate", "100", "--duration", "1s",
                "--warmup", "0s", "--output", refusedOut.toString());
        Path untrustedOut = dir.resolve("streams-untrusted");
        CliRun untrusted = CliRun.of("e2e", "--system", "rabbitmq-streams", "--url", url, "--user", USER,
                "--password-file", SecretLeaks.passwordFile(dir, PASSWORD).toString(), "--rate", "100", "--duration",
                "1s", "--warmup", "0s", "--output", untrustedOut.toString());

        assertEquals(2, refused.exitCode, refused.toString());
        assertEquals("error: --user: RabbitMQ Streams at " + url + " refused the login of user '" + USER + "' (Unexpected "
                + "response code during authentication: 8 (AUTHENTICATION_FAILURE)); "
                + "check --user and --password-file, or the URL's rabbitmq-stream+tls://USER:PASSWORD@HOST"
                + System.lineSeparator(), refused.lastErrLine(), refused.err);
        assertEquals(2, untrusted.exitCode, untrusted.toString());
        assertEquals("error: --ca: the TLS certificate of RabbitMQ Streams at " + url + " is not trusted or does not "
                + "name its host (unable to find valid certification path to requested target); give the authority that signed it with --ca FILE (PEM), and the host its "
                + "certificate names" + System.lineSeparator(), untrusted.lastErrLine(), untrusted.err);
        SecretLeaks.assertAbsent(wrong, refused, refusedOut, remote.logDir());
        SecretLeaks.assertAbsent(PASSWORD, untrusted, untrustedOut, remote.logDir());
    }

    private CliRun remoteRun(Path out, String password, String... flags) throws Exception {
        List<String> args = new ArrayList<>(List.of("e2e", "--system", "rabbitmq", "--user", USER, "--password-file",
                SecretLeaks.passwordFile(dir, password).toString(), "--rate", "300", "--duration", "1s", "--warmup", "1s",
                "--output", out.toString()));
        args.addAll(List.of(flags));
        return CliRun.of(args.toArray(String[]::new));
    }

    /** The class's broker has the stream plugin: its url() is the stream protocol's. */
    private static String amqpUrl() {
        return remote.url(1);
    }

    private static String ca() {
        LocalSecurity security = remote.localSecurity();
        return security.pki().caFile().toString();
    }
}
