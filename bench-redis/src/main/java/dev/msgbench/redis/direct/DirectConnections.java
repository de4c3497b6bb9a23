package dev.msgbench.redis.direct;

import java.io.IOException;
import java.time.Duration;

import dev.msgbench.core.UserError;
import dev.msgbench.redis.resp.RespConnection;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;

/** The connections of {@code --redis-client direct}, to the server --url names, with its credentials. */
public final class DirectConnections {

    private DirectConnections() {
    }

    /**
     * @param uri --url, parsed by the adapter as for lettuce, so that both clients read it alike
     * @throws UserError when the URL wants TLS, the server cannot be reached or refuses us
     */
    public static RespConnection open(RedisURI uri, String name, Duration timeout) throws IOException {
        if (uri.isSsl()) {
            throw tlsRefused(uri);
        }
        RedisCredentials credentials = uri.getCredentialsProvider() == null ? null
                : uri.getCredentialsProvider().resolveCredentials().block(timeout);
        boolean password = credentials != null && credentials.hasPassword();
        return RespConnection.open(uri.getHost(), uri.getPort(),
                password && credentials.hasUsername() ? credentials.getUsername() : null,
                password ? new String(credentials.getPassword()) : null, name, timeout);
    }

    /** The one line for a server reached over TLS: the direct client speaks plaintext RESP only. */
    public static UserError tlsRefused(RedisURI uri) {
        return new UserError("--url: '" + uri.getHost() + ":" + uri.getPort() + "' uses TLS (rediss:// or --ca), "
                + "which --redis-client direct does not speak; use --redis-client lettuce");
    }
}
