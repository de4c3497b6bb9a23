package dev.msgbench.core.broker;

import dev.msgbench.core.UserError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Loopback ports for brokers the suite starts. */
public final class FreePorts {

    public static final InetAddress LOOPBACK = loopback();

    /*
     * A port is free when we hand it out but the broker binds it a second later; remembering what
     * this JVM handed out keeps two clusters started side by side from getting the same port.
     */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    /** {@code count} distinct ports that were free on 127.0.0.1 a moment ago. */
    public static List<Integer> take(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, got " + count);
        }
        List<ServerSocket> held = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        try {
            // all sockets stay bound until we have enough, so the kernel cannot repeat a port
            while (ports.size() < count) {
                ServerSocket socket = new ServerSocket();
                held.add(socket);
                socket.bind(new InetSocketAddress(LOOPBACK, 0));
                int port = socket.getLocalPort();
                if (HANDED_OUT.add(port)) {
                    ports.add(port);
                }
            }
            return List.copyOf(ports);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on 127.0.0.1", e);
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // closing an unconnected listening socket does not fail in practice
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    /** Checks that a port the user asked for can be bound on 127.0.0.1. */
    public static void requireFree(int port) {
        if (port < 1 || port > 65535) {
            throw new UserError("port must be between 1 and 65535, got " + port);
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(LOOPBACK, port));
        } catch (IOException e) {
            throw new UserError("port " + port + " on 127.0.0.1 is already in use; "
                    + "stop what holds it (is a broker from an earlier run still up?) or choose another port", e);
        }
    }

    private static InetAddress loopback() {
        try {
            // not getLoopbackAddress(): that is ::1 when IPv6 is preferred, and brokers listen on 127.0.0.1
            return InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
        } catch (UnknownHostException e) {
            throw new AssertionError("a literal address needs no lookup", e);
        }
    }
}
