package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The security flags every system shares, where they mean nothing: one line, exit 2, before any
 * broker starts. And a password inside a URL never printed, whatever goes wrong.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SecurityFlagsTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    @Test
    void trustAndLoginFlagsWithoutUrlAreForABrokerGivenWithUrl() {
        CliRun run = e2e("--system", "redis", "--ca", "ca.pem");

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --ca is for a broker given with --url; a local broker started with --secure makes its own "
                + "certificates and login" + NL, run.err);
    }

    @Test
    void secureAndUrlTogetherAreRefused() {
        CliRun run = e2e("--system", "nats", "--secure", "--url", "nats://127.0.0.1:4222");

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --secure starts a secured local broker, and --url measures a broker already running; "
                + "for that one give --ca, --user and --password-file" + NL, run.err);
    }

    @Test
    void aPasswordFileNeedsABrokerToUseItOn() throws IOException {
        Path password = Files.writeString(dir.resolve("pw"), "unused-password\n");
        CliRun run = e2e("--system", "kafka", "--password-file", password.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --password-file needs --url (a secured broker to reach) or --secure (a local one to secure)"
                + NL, run.err);
    }

    @Test
    void anEmptyPasswordFileIsNamed() throws IOException {
        Path password = Files.writeString(dir.resolve("pw"), "\n");
        CliRun run = e2e("--system", "kafka", "--url", "127.0.0.1:1", "--user", "u", "--password-file", password.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --password-file: " + password + " is empty" + NL, run.err);
    }

    @Test
    void theInProcessSystemHasNoBrokerToSecure() {
        CliRun run = e2e("--system", "loopback", "--secure");

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --secure, --ca, --user and --password-file mean nothing for loopback: it runs inside this "
                + "JVM, with no broker to secure" + NL, run.err);
    }

    @Test
    void aPasswordInsideAnUnreachableUrlIsNeverPrinted() throws IOException {
        String secret = "Unreachable-Secret-7f3a";
        Path out = dir.resolve("out");
        CliRun run = CliRun.of("e2e", "--system", "nats", "--url", "nats://user:" + secret + "@127.0.0.1:1",
                "--duration", "1s", "--warmup", "0s", "--output", out.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("***"), run.toString());
        assertFalse(run.err.contains(secret), run.toString());
        SecretLeaks.assertAbsent(secret, run, out);
    }

    @Test
    void anUnreachableStreamsUrlOverTlsIsOneLineWithoutItsPassword() throws IOException {
        String secret = "Streams-Secret-2b7e";
        Path out = dir.resolve("streams");
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq-streams", "--url",
                "rabbitmq-stream+tls://bench:" + secret + "@127.0.0.1:1", "--duration", "1s", "--warmup", "0s",
                "--output", out.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --url: no RabbitMQ Streams node answered the stream protocol at "
                + "rabbitmq-stream+tls://127.0.0.1:1 (Connection refused); check the address, or omit --url to start a "
                + "local broker" + NL, run.lastErrLine(), run.toString());
        SecretLeaks.assertAbsent(secret, run, out);
    }

    @Test
    void aPasswordInAWorkloadFilesUrlIsInNoFileTheRunWrites() throws IOException {
        String secret = "Workload-Secret-91c2";
        Path file = Files.writeString(dir.resolve("w.yaml"), "name: secured\ndefaults: {url: \"redis://u:" + secret
                + "@127.0.0.1:1\", duration: 1s, warmup: 0s}\ncells:\n  - {label: one, system: redis}\n");
        Path out = dir.resolve("run");
        CliRun run = CliRun.of("run", file.toString(), "--output", out.toString());

        assertTrue(Files.exists(out.resolve("summary.json")), run.toString());
        assertTrue(Files.readString(out.resolve("summary.json")).contains("redis://u:***@127.0.0.1:1"), run.toString());
        SecretLeaks.assertAbsent(secret, run, out);
    }

    @Test
    void aPasswordInASweepsUrlIsInNoFileTheSweepWrites() throws IOException {
        String secret = "Sweep-Secret-40d1";
        Path out = dir.resolve("sweep");
        CliRun run = CliRun.of("sweep", "--objective", "p99<=10ms", "--system", "redis", "--url",
                "redis://u:" + secret + "@127.0.0.1:1", "--duration", "1s", "--warmup", "0s", "--output", out.toString());

        assertTrue(Files.readString(out.resolve("sweep.txt")).contains("redis://u:***@127.0.0.1:1"), run.toString());
        SecretLeaks.assertAbsent(secret, run, out);
    }

    private CliRun e2e(String... args) {
        String[] all = new String[args.length + 4];
        all[0] = "e2e";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--output";
        all[args.length + 2] = dir.resolve("out").toString();
        all[args.length + 3] = "--quiet";
        return CliRun.of(all);
    }
}
