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
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.mqtt.broker.LocalMosquitto;
import dev.msgbench.mqtt.broker.MosquittoBrokerSpec;

/**
 * MQTT with TLS and a login, through the command line, run in-process: the suite's own secured
 * Mosquitto (--secure), RabbitMQ's MQTT plugin and nats-server's MQTT listener, and a secured
 * Mosquitto the test starts, reached as one the suite did not start (--url mqtts:// with --ca,
 * --user, --password-file). A known password is searched for in everything each run printed and wrote.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class MqttSecureEndToEndTest {

    private static final String PASSWORD = "mqtt-Leak-Check-6Hq2";
    private static final String USER = "bench-user";

    private static LocalMosquitto remote;

    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    @BeforeAll
    static void startRemoteBroker() {
        remote = LocalMosquitto.start(MosquittoBrokerSpec.of(BrokerSpec.defaults()
                .withLogDir(shared.resolve("remote-logs")).withSecurity(new BrokerSecurity(USER, Secret.of(PASSWORD),
                        false))));
    }

    @AfterAll
    static void stopRemoteBroker() {
        if (remote != null) {
            remote.close();
        }
    }

    /** Mosquitto, RabbitMQ's MQTT plugin and nats-server's MQTT listener, each secured by its own launcher. */
    @ParameterizedTest(name = "--mqtt-broker {0}")
    @CsvSource({"mosquitto,mosquitto-1.log", "rabbitmq,rabbitmq-1.log", "nats,nats-1.log"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void e2eSecureRunsOverTlsWithTheKnownPasswordAndNothingWrittenOrPrintedHoldsIt(String broker, String log)
            throws Exception {
        Path out = dir.resolve(broker);
        CliRun run = CliRun.of("e2e", "--system", "mqtt", "--mqtt-broker", broker, "--secure", "--password-file",
                SecretLeaks.passwordFile(dir, PASSWORD).toString(), "--rate", "300", "--duration", "1s", "--warmup",
                "1s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultTrees.complete(out);
        assertEquals(600, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertTrue(r.get("broker").get("url").asText().matches("mqtts://127\\.0\\.0\\.1:\\d+"),
                r.get("broker").toString());
        assertTrue(run.err.contains(" ready at mqtts://127.0.0.1:"), run.err);
        assertEquals("TLS, user msgbench, password", r.get("broker").get("security").asText(), r.get("broker").toString());
        assertTrue(Files.size(out.resolve("broker-logs").resolve(log)) > 0, "the broker's log is kept");
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    @Test
    void aSecuredBrokerTheSuiteDidNotStartIsMeasuredWithCaUserAndPasswordFile() throws Exception {
        Path out = dir.resolve("remote");
        CliRun run = remoteRun(out, PASSWORD, "--ca", ca());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultTrees.complete(out);
        assertEquals(300, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(remote.url(), r.get("broker").get("url").asText());
        assertEquals("TLS, user " + USER + ", password", r.get("broker").get("security").asText());
        SecretLeaks.assertAbsent(PASSWORD, run, out, remote.logDir());
    }

    @Test
    void aRefusedLoginIsOneLineAndNeitherPasswordShows() throws Exception {
        Path out = dir.resolve("refused");
        String wrong = "wrong-Mqtt-Check-2Rt7";
        CliRun run = remoteRun(out, wrong, "--ca", ca());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --user: the MQTT broker at " + remote.url() + " refused the login of user '" + USER
                + "' (Not authorized to connect (5)); check --user and --password-file" + System.lineSeparator(),
                run.lastErrLine(), run.err);
        SecretLeaks.assertAbsent(wrong, run, out, remote.logDir());
        SecretLeaks.assertAbsent(PASSWORD, run, out, remote.logDir());
    }

    @Test
    void anUntrustedCertificateIsOneLineNamingTheCaFlag() throws Exception {
        Path out = dir.resolve("untrusted");
        CliRun run = remoteRun(out, PASSWORD);

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --ca: the TLS certificate of the MQTT broker at " + remote.url() + " is not trusted "
                + "(unable to find valid certification path to requested target); give the authority that signed it "
                + "with --ca FILE (PEM)" + System.lineSeparator(), run.lastErrLine(), run.err);
        SecretLeaks.assertAbsent(PASSWORD, run, out, remote.logDir());
    }

    @Test
    void theBrokerCommandSecuredPrintsTheMqttsAddressAndThePasswordFileButNotThePassword() throws Exception {
        Path logs = dir.resolve("broker-logs");
        CliRun run = CliRun.of("broker", "mqtt", "--secure", "--password-file",
                SecretLeaks.passwordFile(dir, PASSWORD).toString(), "--stop-after", "1s", "--logs", logs.toString());

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.trim().matches("mqtts://127\\.0\\.0\\.1:\\d+"), run.out);
        assertTrue(run.err.contains("measure it with: e2e --system mqtt --url " + run.out.trim() + " --ca "), run.err);
        SecretLeaks.assertAbsent(PASSWORD, run, logs);
    }

    private CliRun remoteRun(Path out, String password, String... flags) throws Exception {
        List<String> args = new ArrayList<>(List.of("e2e", "--system", "mqtt", "--url", remote.url(), "--user", USER,
                "--password-file", SecretLeaks.passwordFile(dir, password).toString(), "--rate", "300", "--duration",
                "1s", "--warmup", "0s", "--output", out.toString()));
        args.addAll(List.of(flags));
        return CliRun.of(args.toArray(String[]::new));
    }

    private static String ca() {
        return remote.localSecurity().pki().caFile().toString();
    }
}
