package dev.msgbench.core.net;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The hosts a broker URL names, in any system's syntax ({@code host:port,host:port},
 * {@code nats://a:4222,nats://b:4222}, {@code amqp://user:secret@host:5672/vhost},
 * {@code redis://[::1]:6379}), and whether one of them is this machine.
 */
public final class UrlHosts {

    private UrlHosts() {
    }

    /** The host part of each comma-separated address, as written. */
    public static List<String> of(String url) {
        List<String> hosts = new ArrayList<>();
        for (String address : url.split(",")) {
            String a = address.trim();
            int scheme = a.indexOf("://");
            if (scheme >= 0) {
                a = a.substring(scheme + 3);
            }
            int slash = a.indexOf('/');
            if (slash >= 0) {
                a = a.substring(0, slash);
            }
            int at = a.lastIndexOf('@');
            if (at >= 0) {
                a = a.substring(at + 1);
            }
            if (a.startsWith("[")) {
                int close = a.indexOf(']');
                a = close > 0 ? a.substring(1, close) : a.substring(1);
            } else if (a.indexOf(':') >= 0 && a.indexOf(':') == a.lastIndexOf(':')) {
                a = a.substring(0, a.indexOf(':'));
            }
            if (!a.isEmpty()) {
                hosts.add(a);
            }
        }
        return hosts;
    }

    /**
     * Whether any host of {@code url} is this machine: a loopback address, "localhost", or an
     * address of one of this machine's interfaces. A name that does not resolve is taken for
     * another machine's (the run will say so when it cannot connect).
     */
    public static boolean anyOnThisMachine(String url) {
        for (String host : of(url)) {
            if (host.toLowerCase(Locale.ROOT).equals("localhost")) {
                return true;
            }
            try {
                for (InetAddress address : InetAddress.getAllByName(host)) {
                    if (address.isLoopbackAddress() || address.isAnyLocalAddress()
                            || NetworkInterface.getByInetAddress(address) != null) {
                        return true;
                    }
                }
            } catch (UnknownHostException | SocketException e) {
                // unknown here: another machine's, as far as this run can tell
            }
        }
        return false;
    }
}
