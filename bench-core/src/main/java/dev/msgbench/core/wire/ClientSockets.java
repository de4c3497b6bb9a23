package dev.msgbench.core.wire;

import java.io.IOException;
import java.net.Socket;
import java.nio.channels.SocketChannel;

/** The sockets of the direct clients' connections. */
public final class ClientSockets {

    private ClientSockets() {
    }

    /**
     * An unconnected socket whose reads and writes block in the kernel once its timeouts are off,
     * even after a connect or reads with a timeout. A {@code new Socket()} (the JDK's NioSocketImpl)
     * turns non-blocking for good at its first timed operation; after that every read that finds
     * nothing is a read, a poll and another read, three system calls for each wake-up of a reader
     * thread instead of one, and a write to a full buffer the same. A socket channel's socket goes
     * back to blocking mode after each timed operation.
     */
    public static Socket unconnected() throws IOException {
        return SocketChannel.open().socket();
    }
}
