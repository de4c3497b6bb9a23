package dev.msgbench.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/** Whether a broker a test started, or stopped, still listens on loopback. */
final class LoopbackPorts {

    private LoopbackPorts() {
    }

    /** True when a connection to 127.0.0.1:{@code port} is accepted within 500 ms. */
    static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
