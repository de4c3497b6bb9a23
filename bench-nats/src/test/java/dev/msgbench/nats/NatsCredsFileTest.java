package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.core.testing.ShortRuns;
import dev.msgbench.nats.broker.JwtOperator;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;

/** A nats-server in operator (JWT) mode, and clients that log in with a credentials file (--nats-creds). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@NeedsBroker
class NatsCredsFileTest {

    @TempDir
    static Path shared;

    private static LocalNatsServer server;
    private static Path creds;

    @TempDir
    Path dir;

    @BeforeAll
    static void startAServerTrustingOneOperator() throws Exception {
        JwtOperator operator = JwtOperator.create();
        server = LocalNatsServer.start(NatsServerSpec.of(BrokerSpec.defaults().withLogDir(shared)
                .withProps(operator.serverProps())));
        creds = shared.resolve("user.creds");
        operator.writeUserCreds(creds);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static NatsAuth credsAuth(Path file) {
        return new NatsAuth(ClientSecurity.NONE, null, file);
    }

    @Test
    void aUserOfTheTrustedAccountPublishesAndReceivesEveryMessage() throws Exception {
        RunResult r = ShortRuns.run(new NatsSystem(NatsSettings.defaults(server.url()).withAuth(credsAuth(creds))),
                dir, 600, 256, 1, 1);

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(r.counts().sent(), r.counts().received());
        assertEquals(0, r.counts().lost());
    }

    @Test
    void aUserOfAnAccountTheServerDoesNotKnowIsOneLineSayingTheLoginWasRefused() throws Exception {
        Path stranger = dir.resolve("stranger.creds");
        JwtOperator.create().writeUserCreds(stranger);
        List<Throwable> asyncErrors = new CopyOnWriteArrayList<>();
        UserError e = assertThrows(UserError.class, () -> NatsConnections.open(server.url(), credsAuth(stranger), "test",
                Duration.ofSeconds(5), false, new ErrorRelay("test", asyncErrors::add)));
        assertEquals("--url: the NATS server at " + server.url() + " refused the login (Authorization Violation); "
                + "check --user and --password-file (or the token, NKey or credentials file)", e.getMessage());
    }
}
