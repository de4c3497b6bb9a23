package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.pulsar.broker.LocalPulsar;
import dev.msgbench.pulsar.broker.PulsarBrokerSpec;
import dev.msgbench.pulsar.broker.PulsarLogin;
import dev.msgbench.pulsar.broker.TokenKey;

/**
 * Pulsar with TLS and a login, through the command line, run in-process, against one secured
 * standalone the test starts as --secure would (its password from a file, as --secure
 * --password-file gives it): Pulsar's start is slow, so every run here shares it, and reaches it as
 * a broker the suite did not start (--url pulsar+ssl:// with --ca, --user, --password-file).
 * The known password is searched for in everything each run printed and wrote, and in the
 * standalone's log and temp dir (its conf). The standalone takes a token too (--pulsar-auth token
 * is the client's choice): the token it made is searched for the same way.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@NeedsBroker
class PulsarSecureEndToEndTest {

    private static final String PASSWORD = "pulsar-Leak-Check-7Qw2";

    private static LocalPulsar remote;

    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    @BeforeAll
    @Timeout(150)
    static void startSecuredStandalone() throws Exception {
        Path file = SecretLeaks.passwordFile(shared, PASSWORD);
        BrokerSecurity login = BrokerSecurity.generated().withPassword(Secret.fromFile("--password-file", file));
        // its own clients log in with the token (--pulsar-auth token); the runs here log in as --url gives them
        remote = LocalPulsar.start(PulsarBrokerSpec.of(BrokerSpec.defaults().withLogDir(shared.resolve("remote-logs"))
                .withSecurity(login)).withLogin(PulsarLogin.TOKEN));
    }

    @AfterAll
    static void stopStandalone() {
        if (remote != null) {
            remote.close();
        }
    }

    @Test
    void e2eOverTlsWithTheLoginLosesNothingAndNothingWrittenOrPrintedHoldsThePassword() throws Exception {
        Path out = dir.resolve("secure");
        CliRun run = loginRun(out, BrokerSecurity.DEFAULT_USER, PASSWORD, "--ca", ca());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultTrees.complete(out);
        ResultTrees.assertEachDeliveredOnce(r, 600);
        assertEquals(0, ResultTrees.lost(r));
        assertTrue(remote.url().matches("pulsar\\+ssl://127\\.0\\.0\\.1:\\d+"), remote.url());
        assertEquals(remote.url(), r.get("settings").get("serviceUrl").asText());
        assertEquals(remote.adminUrl(), r.get("settings").get("adminUrl").asText());
        assertTrue(remote.adminUrl().startsWith("https://127.0.0.1:"), remote.adminUrl());
        assertEquals("TLS, user msgbench, password", r.get("broker").get("security").asText(), r.get("broker").toString());
        assertTrue(Files.readString(remote.logDir().resolve("pulsar-1.log")).contains("AuthenticationProviderBasic"),
                "the broker loaded basic authentication");
        SecretLeaks.assertAbsent(PASSWORD, run, out, remote.logDir(), remote.dataDir(1));
        SecretLeaks.assertAbsent(token(), run, out, remote.logDir(), remote.dataDir(1));
    }

    @Test
    void e2eOverTlsWithTheTokenLosesNothingAndNothingWrittenOrPrintedHoldsTheToken() throws Exception {
        Path out = dir.resolve("token");
        CliRun run = remoteRun(out, "--ca", ca(), "--pulsar-token-file", remote.tokenFile().toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultTrees.complete(out);
        ResultTrees.assertEachDeliveredOnce(r, 600);
        assertEquals(0, ResultTrees.lost(r));
        assertEquals("token", r.get("settings").get("login").asText(), r.get("settings").toString());
        assertTrue(Files.readString(remote.logDir().resolve("pulsar-1.log")).contains("AuthenticationProviderToken"),
                "the broker loaded token authentication");
        SecretLeaks.assertAbsent(token(), run, out, remote.logDir(), remote.dataDir(1));
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    @Test
    void askedForTheTokenLoginTheStandaloneGivesItsOwnClientsTheTokenAndNoPassword() throws Exception {
        ClientSecurity own = remote.clientSecurity();

        assertEquals("TLS, token", own.toString());
        assertEquals(token(), own.token().reveal());
        assertEquals(remote.localSecurity().pki().caFile(), own.tls().caFile());
    }

    @Test
    void aTokenSignedWithAnotherKeyIsRefusedInOneLineAndDoesNotShow() throws Exception {
        Path out = dir.resolve("forged");
        TokenKey other = TokenKey.create(Files.createDirectories(dir.resolve("other-key")), BrokerSecurity.DEFAULT_USER);
        CliRun run = remoteRun(out, "--ca", ca(), "--pulsar-token-file", other.tokenFile().toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --pulsar-token-file: Pulsar at " + remote.adminUrl() + " refused the token (HTTP 401); "
                + "check --pulsar-token-file" + System.lineSeparator(), run.lastErrLine(), run.err);
        SecretLeaks.assertAbsent(other.token().reveal(), run, out, remote.logDir());
        SecretLeaks.assertAbsent(token(), run, out);
    }

    @Test
    void aTokenBesideAUserIsTwoLoginsRefusedInOneLine() throws Exception {
        Path out = dir.resolve("two-logins");
        CliRun run = loginRun(out, BrokerSecurity.DEFAULT_USER, PASSWORD, "--ca", ca(), "--pulsar-token-file",
                remote.tokenFile().toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --pulsar-token-file and --user are two logins (a token, a user and password); give one "
                + "of them" + System.lineSeparator(), run.lastErrLine(), run.err);
        SecretLeaks.assertAbsent(token(), run, out);
    }

    @Test
    void aRefusedLoginIsOneLineAndNeitherPasswordShows() throws Exception {
        Path out = dir.resolve("refused");
        String wrong = "wrong-Leak-Check-3Hd8";
        CliRun run = loginRun(out, BrokerSecurity.DEFAULT_USER, wrong, "--ca", ca());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --user: Pulsar at " + remote.adminUrl() + " refused the login of user 'msgbench' (HTTP 401); "
                + "check --user and --password-file" + System.lineSeparator(), run.lastErrLine(), run.err);
        SecretLeaks.assertAbsent(wrong, run, out, remote.logDir());
        SecretLeaks.assertAbsent(PASSWORD, run, out, remote.logDir());
    }

    @Test
    void anUntrustedCertificateIsOneLineNamingTheCaFlag() throws Exception {
        Path out = dir.resolve("untrusted");
        CliRun run = loginRun(out, BrokerSecurity.DEFAULT_USER, PASSWORD);

        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --ca: the TLS certificate of Pulsar's web service at " + remote.adminUrl() + " is not "
                + "trusted (unable to find valid certification path to requested target); give the authority that "
                + "signed it with --ca FILE (PEM)" + System.lineSeparator(), run.lastErrLine(), run.err);
        SecretLeaks.assertAbsent(PASSWORD, run, out);
    }

    private CliRun loginRun(Path out, String user, String password, String... flags) throws Exception {
        List<String> args = new ArrayList<>(List.of("--user", user, "--password-file",
                SecretLeaks.passwordFile(dir, password).toString()));
        args.addAll(List.of(flags));
        return remoteRun(out, args.toArray(String[]::new));
    }

    private CliRun remoteRun(Path out, String... flags) {
        List<String> args = new ArrayList<>(List.of("e2e", "--system", "pulsar", "--url", remote.url(),
                "--pulsar-admin-url", remote.adminUrl(), "--rate", "300", "--duration", "1s", "--warmup", "1s",
                "--output", out.toString()));
        args.addAll(List.of(flags));
        return CliRun.of(args.toArray(String[]::new));
    }

    /** The token the standalone made, which it takes as the login of its one user. */
    private static String token() throws IOException {
        return Files.readString(remote.tokenFile());
    }

    private static String ca() {
        return remote.localSecurity().pki().caFile().toString();
    }
}
