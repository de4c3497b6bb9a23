package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msgbench.core.UserError;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class FreePortsTest {

    @Test
    @Timeout(10)
    void takeGivesDistinctPortsThatCanBeBound() throws IOException {
        List<Integer> ports = FreePorts.take(6);

        assertEquals(6, new HashSet<>(ports).size());
        for (int port : ports) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(FreePorts.LOOPBACK, port));
            }
        }
    }

    @Test
    @Timeout(10)
    void takeNeverRepeatsAPortWithinOneJvm() {
        List<Integer> first = FreePorts.take(20);
        List<Integer> second = FreePorts.take(20);

        HashSet<Integer> all = new HashSet<>(first);
        all.addAll(second);
        assertEquals(40, all.size());
    }

    @Test
    @Timeout(10)
    void requireFreeAcceptsAFreePortAndNamesABusyOne() throws IOException {
        int port = FreePorts.take(1).get(0);
        FreePorts.requireFree(port);

        try (ServerSocket busy = new ServerSocket()) {
            busy.bind(new InetSocketAddress(FreePorts.LOOPBACK, port));

            UserError e = assertThrows(UserError.class, () -> FreePorts.requireFree(port));
            assertEquals("port " + port + " on 127.0.0.1 is already in use; stop what holds it "
                    + "(is a broker from an earlier run still up?) or choose another port", e.getMessage());
        }
    }

    @Test
    @Timeout(10)
    void requireFreeRejectsAPortOutOfRange() {
        UserError e = assertThrows(UserError.class, () -> FreePorts.requireFree(70000));

        assertEquals("port must be between 1 and 65535, got 70000", e.getMessage());
    }
}
