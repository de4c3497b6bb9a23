package dev.msgbench.core.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which host a load generator ran on, as its result records it: the host name, its IPv4 addresses
 * apart from loopback, and the named network namespace it runs in. Workers on one machine share
 * the host name; only their namespaces and addresses tell them apart (and a pod's address is its
 * own on Kubernetes).
 */
public final class NetworkIdentity {

    /** Where {@code ip netns add} binds the namespaces it names. */
    private static final Path NAMED = Path.of("/run/netns");
    private static final Path OWN = Path.of("/proc/self/ns/net");

    private NetworkIdentity() {
    }

    /** {@code hostname}, {@code addresses}, and {@code namespace} (null outside a named one). */
    public static Map<String, Object> describe() {
        Map<String, Object> host = new LinkedHashMap<>();
        host.put("hostname", hostname());
        host.put("addresses", addresses());
        host.put("namespace", namespace());
        return host;
    }

    static String hostname() {
        Path kernel = Path.of("/proc/sys/kernel/hostname");
        try {
            return Files.isReadable(kernel) ? Files.readString(kernel).strip() : InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read this host's name", e);
        }
    }

    /** Sorted, so that two runs on one host record the same list. */
    static List<String> addresses() {
        List<String> addresses = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                        addresses.add(address.getHostAddress());
                    }
                }
            }
        } catch (SocketException e) {
            throw new UncheckedIOException("cannot list this host's network interfaces", e);
        }
        Collections.sort(addresses);
        return addresses;
    }

    /**
     * The name {@code ip netns exec} entered, as {@code ip netns identify} finds it: the named
     * namespace whose inode is this process's; null in an unnamed one (the machine's, a pod's).
     */
    static String namespace() {
        if (!Files.isDirectory(NAMED) || !Files.exists(OWN)) {
            return null;
        }
        try (DirectoryStream<Path> named = Files.newDirectoryStream(NAMED)) {
            Object own = Files.getAttribute(OWN, "unix:ino");
            for (Path candidate : named) {
                if (Objects.equals(own, inode(candidate))) {
                    return candidate.getFileName().toString();
                }
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot tell which network namespace this is (" + NAMED + ")", e);
        }
    }

    /** Null for a name whose namespace is gone: another run may delete it while we look. */
    private static Object inode(Path named) throws IOException {
        try {
            return Files.getAttribute(named, "unix:ino");
        } catch (NoSuchFileException gone) {
            return null;
        }
    }
}
