package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.UserError;
import dev.msgbench.nats.wire.WireConnection;

class ConnectFailureTest {

    /** What jnats throws when no server completed the connection within the bound. */
    private static IOException timedOut() {
        return new IOException("Unable to connect to NATS servers: [nats://127.0.0.1:4222]", new TimeoutException());
    }

    @Test
    void aSilentServerTheSuiteStartedIsBlamedOnTheServerOrTheMachineNotOnUrl() {
        IOException e = timedOut();
        UserError error = ConnectFailure.describe(e, "nats://127.0.0.1:4222", NatsSettings.LOCAL_CONNECT_TIMEOUT,
                NatsAuth.NONE, true);
        assertEquals("the local NATS server the suite started at nats://127.0.0.1:4222 did not answer within 30 s "
                + "(its log is in the run's broker-logs/); the machine may be too busy", error.getMessage());
        assertSame(e, error.getCause());
    }

    @Test
    void aSilentServerAtUrlStillSaysToCheckTheAddress() {
        UserError error = ConnectFailure.describe(timedOut(), "nats://127.0.0.1:4222", NatsSettings.DEFAULT_CONNECT_TIMEOUT,
                NatsAuth.NONE, false);
        assertEquals("--url: no NATS server answered at nats://127.0.0.1:4222 within 5 s; check the address, or omit --url "
                + "to start a local server", error.getMessage());
    }

    @Test
    @Timeout(10)
    void theDirectClientSaysTheSameOfASuiteServerThatDoesNotAnswer() {
        // nothing listens on port 1: refused at once
        UserError error = assertThrows(UserError.class,
                () -> WireConnection.open("127.0.0.1:1", 0, "p", Duration.ofSeconds(2), true, new FirstFailure()));
        assertEquals("the local NATS server the suite started at [127.0.0.1:1] did not answer within 2 s "
                + "(its log is in the run's broker-logs/); the machine may be too busy", error.getMessage());
    }
}
