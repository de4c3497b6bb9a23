package dev.msgbench.redis;

import java.io.IOException;
import java.time.Duration;

import dev.msgbench.core.UserError;
import dev.msgbench.redis.resp.RespConnection;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;

/** The connections of {@code --redis-client direct}, to the server --url names, with its credentials. */
final class DirectConnections {

    private DirectConnections() {
    }

    /** @throws UserError when the URL is malformed or wants TLS, the server cannot be reached or refuses us */
    static RespConnection open(String url, String name, Duration timeout) throws IOException {
        RedisURI uri = RedisConnector.parse(url);
        if (uri.isSsl()) {
            throw new UserError("--url: '" + uri.getHost() + ":" + uri.getPort() + "' uses TLS, which --redis-client "
                    + "direct does not speak; use --redis-client lettuce");
        }
        RedisCredentials credentials = uri.getCredentialsProvider() == null ? null
                : uri.getCredentialsProvider().resolveCredentials().block(timeout);
        boolean password = credentials != null && credentials.hasPassword();
        return RespConnection.open(uri.getHost(), uri.getPort(),
                password && credentials.hasUsername() ? credentials.getUsername() : null,
                password ? new String(credentials.getPassword()) : null, name, timeout);
    }
}
