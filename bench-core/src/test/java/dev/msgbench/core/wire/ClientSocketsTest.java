package dev.msgbench.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ClientSocketsTest {

    private static final int O_NONBLOCK = 04000;

    @Test
    @Timeout(10)
    void aSocketConnectedAndReadWithTimeoutsBlocksInTheKernelOnceTheTimeoutIsOff() throws IOException {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket socket = ClientSockets.unconnected()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), 5_000);
            try (Socket accepted = server.accept()) {
                socket.setSoTimeout(5_000);
                accepted.getOutputStream().write('x');
                assertEquals('x', socket.getInputStream().read());
                socket.setSoTimeout(0);
                accepted.getOutputStream().write('y');
                assertEquals('y', socket.getInputStream().read());

                assertEquals(0, fileStatusFlags(socket.getLocalPort()) & O_NONBLOCK,
                        "the socket's descriptor is still non-blocking");
            }
        }
    }

    /** The flags of this process's descriptor of the TCP socket bound to {@code localPort}, from /proc. */
    private static int fileStatusFlags(int localPort) throws IOException {
        String inode = socketInode(localPort);
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException gone) {
                    continue;
                }
                if (target.equals("socket:[" + inode + "]")) {
                    for (String line : Files.readAllLines(Path.of("/proc/self/fdinfo", fd.getFileName().toString()))) {
                        if (line.startsWith("flags:")) {
                            return Integer.parseInt(line.substring("flags:".length()).trim(), 8);
                        }
                    }
                }
            }
        }
        throw new AssertionError("no descriptor of this process is the socket of local port " + localPort);
    }

    private static String socketInode(int localPort) throws IOException {
        String port = String.format(":%04X", localPort);
        for (String file : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
            for (String line : Files.readAllLines(Path.of(file))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[1].endsWith(port) && !f[9].equals("0")) {
                    return f[9];
                }
            }
        }
        throw new AssertionError("no TCP socket of local port " + localPort + " in /proc/self/net");
    }
}
