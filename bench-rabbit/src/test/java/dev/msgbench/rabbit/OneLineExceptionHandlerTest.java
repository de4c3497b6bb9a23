package dev.msgbench.rabbit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.SocketException;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.TopologyRecoveryException;

class OneLineExceptionHandlerTest {

    @Test
    void aBrokenConnectionIsOneLineWithItsRootCause() {
        assertEquals("IOException: write failed (SocketException: Broken pipe)",
                OneLineExceptionHandler.describe(new IOException("write failed", new SocketException("Broken pipe"))));
    }

    @Test
    void aCauseTheMessageAlreadyNamesIsNotRepeatedAndLineBreaksGo() {
        SocketException reset = new SocketException("Connection reset");
        assertEquals("IOException: lost: Connection reset",
                OneLineExceptionHandler.describe(new IOException("lost: Connection reset", reset)));
        assertEquals("TopologyRecoveryException: queue q: closed (IllegalStateException: channel closed)",
                OneLineExceptionHandler.describe(new TopologyRecoveryException("queue q:\n  closed",
                        new IllegalStateException("channel closed"))));
    }
}
