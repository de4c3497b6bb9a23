package dev.msgbench.core.net;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Main classes the network tests run in child JVMs, most of them inside a host's namespace. */
final class NetChildMains {

    private NetChildMains() {
    }

    /** Builds a topology of one node, prints its switch namespace, then sleeps (until SIGKILLed). */
    static final class OwnsTopology {
        public static void main(String[] args) throws InterruptedException {
            Topology topology = Topology.create(1, LinkShaping.NONE);
            System.out.println(topology.hosts().switchNamespace());
            System.out.flush();
            Thread.sleep(Duration.ofMinutes(10).toMillis());
        }
    }

    /** For each line read, prints System.nanoTime(): the clock of whatever namespace it runs in. */
    static final class ReadsClock {
        public static void main(String[] args) throws IOException {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            while (in.readLine() != null) {
                System.out.println(System.nanoTime());
                System.out.flush();
            }
        }
    }

    /**
     * Listens on {@code args[0]}:{@code args[1]}, prints "listening", then for each stamp it
     * receives prints the stamp and its own nanoTime at receipt, and answers one byte.
     */
    static final class ReceivesStamps {
        public static void main(String[] args) throws IOException {
            try (ServerSocket server = new ServerSocket()) {
                server.bind(new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1])));
                System.out.println("listening");
                System.out.flush();
                try (Socket socket = server.accept()) {
                    socket.setTcpNoDelay(true);
                    DataInputStream in = new DataInputStream(socket.getInputStream());
                    DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                    while (true) {
                        long sent;
                        try {
                            sent = in.readLong();
                        } catch (java.io.EOFException e) {
                            return;
                        }
                        long received = System.nanoTime();
                        System.out.println(sent + " " + received);
                        System.out.flush();
                        out.writeByte(1);
                        out.flush();
                    }
                }
            }
        }
    }

    /**
     * Connects to {@code args[0]}:{@code args[1]}; for each line read, sends its nanoTime and
     * waits for the answer, then prints the send stamp and its nanoTime at the answer.
     */
    static final class SendsStamps {
        public static void main(String[] args) throws IOException {
            BufferedReader lines = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            try (Socket socket = new Socket(args[0], Integer.parseInt(args[1]))) {
                socket.setTcpNoDelay(true);
                DataInputStream in = new DataInputStream(socket.getInputStream());
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                while (lines.readLine() != null) {
                    long sent = System.nanoTime();
                    out.writeLong(sent);
                    out.flush();
                    in.readByte();
                    System.out.println(sent + " " + System.nanoTime());
                    System.out.flush();
                }
            }
        }
    }

    /** Prints where it runs as a result records it: its namespace, then its addresses. */
    static final class PrintsIdentity {
        public static void main(String[] args) {
            System.out.println(NetworkIdentity.namespace());
            System.out.println(String.join(",", NetworkIdentity.addresses()));
            System.out.flush();
        }
    }
}
