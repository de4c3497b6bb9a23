package dev.msgbench.nats.wire;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.UserError;

/** One server of the --url list. Credentials are never part of toString. */
public record ServerAddress(String host, int port, String user, String password, String token) {

    public static final int DEFAULT_PORT = 4222;

    @Override
    public String toString() {
        return host + ":" + port;
    }

    /** Splits the --url list as jnats does: nats://[user:password@]host[:port] or host[:port], comma-separated. */
    public static List<ServerAddress> list(String url) {
        List<ServerAddress> servers = new ArrayList<>();
        for (String part : url.split(",")) {
            String s = part.trim();
            if (s.isEmpty()) {
                continue;
            }
            URI uri;
            try {
                uri = new URI(s.contains("://") ? s : "nats://" + s);
            } catch (URISyntaxException e) {
                throw new UserError("--url: '" + redact(s) + "' is not a NATS server address (host:port or nats://host:port)");
            }
            if (!"nats".equalsIgnoreCase(uri.getScheme())) {
                throw new UserError("--url: '" + redact(s) + "': --nats-client direct speaks plain nats:// only; "
                        + "use --nats-client jnats for " + uri.getScheme() + "://");
            }
            if (uri.getHost() == null) {
                throw new UserError("--url: '" + redact(s) + "' names no host");
            }
            String user = null;
            String password = null;
            String token = null;
            String info = uri.getUserInfo();
            if (info != null) {
                int colon = info.indexOf(':');
                if (colon < 0) {
                    token = info;
                } else {
                    user = info.substring(0, colon);
                    password = info.substring(colon + 1);
                }
            }
            servers.add(new ServerAddress(uri.getHost(), uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(), user, password,
                    token));
        }
        if (servers.isEmpty()) {
            throw new UserError("--url: '" + redact(url) + "' names no NATS server");
        }
        return servers;
    }

    /** A --url list as it may be printed: each address without what stands before its '@'. */
    public static String redactAll(String url) {
        return java.util.Arrays.stream(url.split(",", -1)).map(ServerAddress::redact)
                .collect(java.util.stream.Collectors.joining(","));
    }

    /** An address as it may be printed: whatever stands before '@' is a secret. */
    private static String redact(String address) {
        int at = address.lastIndexOf('@');
        if (at < 0) {
            return address;
        }
        int scheme = address.indexOf("://");
        return (scheme >= 0 && scheme < at ? address.substring(0, scheme + 3) : "") + "***" + address.substring(at);
    }
}
