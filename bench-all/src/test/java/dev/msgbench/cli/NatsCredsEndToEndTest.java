package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.security.Secrets;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.nats.broker.JwtOperator;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;

/**
 * --nats-creds against a nats-server in operator (JWT) mode that the runs did not start: the user's
 * NKey seed in the credentials file is then searched for in all that each outcome printed and wrote.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@NeedsBroker
class NatsCredsEndToEndTest {

    @TempDir
    static Path shared;

    private static JwtOperator operator;
    private static LocalNatsServer server;

    @TempDir
    Path dir;

    @BeforeAll
    static void startAServerTrustingOneOperator() throws Exception {
        operator = JwtOperator.create();
        server = LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults().withLogDir(shared)
                .withProps(operator.serverProps())));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aCredentialsFileLogsInLosesNothingAndItsSeedIsNeverShown() throws Exception {
        Path creds = dir.resolve("user.creds");
        String seed = operator.writeUserCreds(creds);
        Path out = dir.resolve("e2e");
        CliRun run = CliRun.of("e2e", "--system", "nats", "--url", server.url(), "--nats-creds", creds.toString(),
                "--rate", "200", "--duration", "1s", "--warmup", "0s", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals(200, r.get("counts").get("received").asLong());
        assertEquals(0, ResultTrees.lost(r));
        assertEquals(Secrets.HIDDEN, Secrets.scrub(seed), "the seed is registered as a secret");
        SecretLeaks.assertAbsent(seed, run, out);
    }

    @Test
    void aUserOfAnotherAccountIsOneRefusedLoginLineWithExitTwoAndNoSeed() throws Exception {
        Path creds = dir.resolve("stranger.creds");
        String seed = JwtOperator.create().writeUserCreds(creds);
        Path out = dir.resolve("refused");
        CliRun run = CliRun.of("e2e", "--system", "nats", "--url", server.url(), "--nats-creds", creds.toString(),
                "--rate", "100", "--duration", "1s", "--output", out.toString());

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("error: --url: the NATS server at " + server.url() + " refused the login "
                + "(Authorization Violation); check --user and --password-file (or the token, NKey or credentials file)\n"),
                run.toString());
        assertEquals(0, run.err.lines().filter(l -> l.startsWith("\tat ")).count(), run.err);
        SecretLeaks.assertAbsent(seed, run, out);
    }
}
