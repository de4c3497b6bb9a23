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
import dev.msgbench.redis.broker.LocalRedis;
import dev.msgbench.redis.broker.RedisBrokerSpec;

/**
 * Redis pub/sub and Streams with TLS and a login: the local broker of --secure, and a secured
 * redis-server the suite did not start (this test starts it), reached with --url and the trust and
 * login flags; and a known password that no outcome prints or writes.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@NeedsBroker
class RedisSecureEndToEndTest {

    /** Known, so that every byte the suite printed and wrote can be searched for it. */
    private static final String SECRET = "Kn0wn-Redis-Secret-4242";

    private static LocalRedis secured;

    @TempDir
    Path dir;

    @BeforeAll
    static void startASecuredRedisTheSuiteDidNotStart() {
        secured = LocalRedis.start(RedisBrokerSpec.of(BrokerSpec.defaults()
                .withSecurity(BrokerSecurity.generated().withPassword(Secret.of(SECRET)))));
    }

    @AfterAll
    static void stopIt() {
        if (secured != null) {
            secured.close();
        }
    }

    @ParameterizedTest(name = "--system {0}")
    @ValueSource(strings = {"redis", "redis-streams"})
    void e2eSecureRunsOverTlsWithTheLoginAndLosesNothing(String system) throws Exception {
        Path out = dir.resolve("e2e");
        CliRun run = CliRun.of("e2e", "--system", system, "--secure", "--rate", "500", "--duration", "1s",
                "--warmup", "0s", "--output", out.toString());

        JsonNode r = completed(run, out, 500);
        assertTrue(run.err.contains("ready at rediss://127.0.0.1:"), run.err);
        // the client of a local broker offers the throwaway client certificate, whether the server asks for it or not
        assertEquals("TLS, user msgbench, password", r.get("broker").get("security").asText());
    }

    @ParameterizedTest(name = "--system {0}")
    @ValueSource(strings = {"redis", "redis-streams"})
    void throughputSecureSendsAndReceivesEveryMessage(String system) throws Exception {
        Path out = dir.resolve("throughput");
        CliRun run = CliRun.of("throughput", "--system", system, "--secure", "--messages", "20000", "--size", "100B",
                "--consumers", "1", "--output", out.toString());

        completed(run, out, 20_000);
    }

    @ParameterizedTest(name = "--system {0}")
    @ValueSource(strings = {"redis", "redis-streams"})
    void aSecuredServerTheSuiteDidNotStartIsReachedWithTheTrustAndLoginFlags(String system) throws Exception {
        Path out = dir.resolve("remote");
        CliRun run = CliRun.of(remote("e2e", "--system", system, "--url", secured.url(),
                "--ca", secured.localSecurity().pki().caFile().toString(), "--user", "msgbench",
                "--password-file", passwordFile().toString(), "--output", out.toString()));

        completed(run, out, 500);
        SecretLeaks.assertAbsent(SECRET, run, out);
    }

    @ParameterizedTest(name = "--system {0}")
    @ValueSource(strings = {"redis", "redis-streams"})
    void theLocalBrokerOfSecureWithAKnownPasswordLeavesItNowhere(String system) throws Exception {
        Path out = dir.resolve("local");
        CliRun run = CliRun.of("e2e", "--system", system, "--secure", "--password-file", passwordFile().toString(),
                "--rate", "500", "--duration", "1s", "--warmup", "0s", "--output", out.toString());

        completed(run, out, 500);
        assertTrue(Files.exists(out.resolve("broker-logs").resolve("redis-1.log")), "the broker's log is kept and searched");
        SecretLeaks.assertAbsent(SECRET, run, out);
    }

    @ParameterizedTest(name = "--system {0}")
    @ValueSource(strings = {"redis", "redis-streams"})
    void aRefusedLoginIsOneLineWithoutTheSecret(String system) throws Exception {
        Path out = dir.resolve("refused");
        CliRun run = CliRun.of(remote("e2e", "--system", system, "--url", secured.url(),
                "--ca", secured.localSecurity().pki().caFile().toString(), "--user", "nobody",
                "--password-file", passwordFile().toString(), "--output", out.toString()));

        failsInOneLineWithoutTheSecret(run, out, "error: --url: the Redis server at " + secured.url()
                + " refused the login (WRONGPASS invalid username-password pair or user is disabled.); check --user "
                + "and --password-file, or the user and password in the URL");
    }

    @ParameterizedTest(name = "--system {0}")
    @ValueSource(strings = {"redis", "redis-streams"})
    void anUnreachableServerWithThePasswordInTheUrlIsOneLineWithoutIt(String system) throws Exception {
        Path out = dir.resolve("unreachable");
        CliRun run = CliRun.of(remote("e2e", "--system", system, "--url", "redis://msgbench:" + SECRET + "@127.0.0.1:1",
                "--output", out.toString()));

        failsInOneLineWithoutTheSecret(run, out, "error: --url: no Redis server answered at "
                + "redis://msgbench:***@127.0.0.1:1 within 5 s; check the address, or omit the flag to start a local broker");
    }

    @ParameterizedTest(name = "--system {0}")
    @ValueSource(strings = {"redis", "redis-streams"})
    void anUntrustedCertificateIsOneLineNamingTheCaFlagWithoutTheSecret(String system) throws Exception {
        Path out = dir.resolve("untrusted");
        CliRun run = CliRun.of(remote("e2e", "--system", system, "--url", secured.url(), "--user", "msgbench",
                "--password-file", passwordFile().toString(), "--output", out.toString()));

        failsInOneLineWithoutTheSecret(run, out, "error: --url: the Redis server at " + secured.url()
                + " presented a certificate that is not trusted (unable to find valid certification path to requested "
                + "target); pass the CA that signed it with --ca FILE");
    }

    @ParameterizedTest(name = "--system {0}")
    @ValueSource(strings = {"redis", "redis-streams"})
    void theDirectClientRefusesATlsUrlWithTheHint(String system) throws Exception {
        CliRun run = CliRun.of(remote("e2e", "--system", system, "--redis-client", "direct", "--url", secured.url(),
                "--ca", secured.localSecurity().pki().caFile().toString(), "--user", "msgbench",
                "--password-file", passwordFile().toString(), "--output", dir.resolve("direct").toString()));

        assertEquals(2, run.exitCode, run.toString());
        assertEquals(List.of("error: --url: '127.0.0.1:" + secured.port(1) + "' uses TLS (rediss:// or --ca), which "
                + "--redis-client direct does not speak; use --redis-client lettuce"), errors(run), run.toString());
    }

    private static String[] remote(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--rate", "500", "--duration", "1s", "--warmup", "0s"));
        return all.toArray(String[]::new);
    }

    private Path passwordFile() throws Exception {
        Path file = dir.resolve("password");
        if (!Files.exists(file)) {
            Files.writeString(file, SECRET + "\n");
        }
        return file;
    }

    private static JsonNode completed(CliRun run, Path out, long messages) throws Exception {
        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("complete", r.get("status").asText(), run.toString());
        assertEquals(messages, r.get("counts").get("sent").asLong());
        assertEquals(messages, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertTrue(run.out.contains("lost 0"), run.out);
        return r;
    }

    /** Exit 2, {@code expected} as the only error line, and the secret nowhere. */
    private static void failsInOneLineWithoutTheSecret(CliRun run, Path out, String expected) throws Exception {
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(List.of(expected), errors(run), run.toString());
        SecretLeaks.assertAbsent(SECRET, run, out);
    }

    private static List<String> errors(CliRun run) {
        return run.err.lines().filter(l -> l.startsWith("error")).toList();
    }
}
