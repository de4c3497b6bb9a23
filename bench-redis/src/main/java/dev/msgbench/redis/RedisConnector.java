package dev.msgbench.redis;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLException;

import dev.msgbench.core.UserError;
import dev.msgbench.core.result.Redaction;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.security.TlsFiles;
import dev.msgbench.redis.direct.DirectConnections;
import dev.msgbench.redis.resp.RespConnection;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.LettuceVersion;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.netty.channel.ConnectTimeoutException;

/**
 * One lettuce client for one run; every producer, consumer and the admin get a connection of
 * their own from it (a TCP connection each, TCP_NODELAY on).
 *
 * <p>Connections reconnect (every {@link #RECONNECT_WAIT}) and resubscribe, so that a run rides
 * through a restarted server and measures it. Commands are never held for a connection that is
 * down: those awaiting a reply when it drops fail ("Connection disconnected") and those issued
 * while it is down are refused at once ("Currently not connected"), each reported as a failed send
 * by the publishers, never replayed (which could duplicate a message). Consumers decide for
 * themselves what a lost connection means ({@link #onDisconnect}, {@link #awaitOpen}).
 *
 * <p>IMPLEMENTATION NOTES: the protocol is RESP2, not lettuce's default RESP3: it is what every
 * Redis speaks, including the 2.8 of the published experiment (E3), and it is recorded in the
 * settings of every result. Measured here, neither protocol lets a subscriber keep up with 1 MiB
 * messages published back to back (Redis disconnects it past 32 MB, client-output-buffer-limit
 * pubsub), and both keep up at 50 msg/s.
 */
final class RedisConnector implements AutoCloseable {

    static final ProtocolVersion PROTOCOL = ProtocolVersion.RESP2;
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);
    /** A restarted local server listens within a second; lettuce's default backs off up to 30 s. */
    static final Duration RECONNECT_WAIT = Duration.ofMillis(100);
    private static final long OPEN_POLL_MILLIS = 20;

    private final String url;
    private final RedisURI uri;
    private final Duration connectTimeout;
    private final Duration reconnectFor;
    private final ClientResources resources;
    private final RedisClient client;
    private final Map<Object, Runnable> onDisconnect = new ConcurrentHashMap<>();

    RedisConnector(RedisSettings settings) {
        this.url = Redaction.redactUrl(settings.url());
        this.uri = secured(parse(settings.url()), settings.security());
        if (settings.client() == RedisClientKind.DIRECT && uri.isSsl()) {
            // before any connection, so that the hint comes first
            throw DirectConnections.tlsRefused(uri);
        }
        this.connectTimeout = settings.connectTimeout();
        this.reconnectFor = settings.reconnectFor();
        this.resources = DefaultClientResources.builder().reconnectDelay(Delay.constant(RECONNECT_WAIT)).build();
        this.client = RedisClient.create(resources, uri);
        ClientOptions.Builder options = ClientOptions.builder()
                .socketOptions(SocketOptions.builder().tcpNoDelay(true).connectTimeout(connectTimeout).build())
                .protocolVersion(PROTOCOL)
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
        if (uri.isSsl()) {
            options.sslOptions(sslOptions(settings.security().tls()));
        }
        client.setOptions(options.build());
        client.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
                Runnable action = onDisconnect.get(connection);
                if (action != null) {
                    // the action may wait for the reconnection, which needs lettuce's threads
                    Thread watch = new Thread(action, "msgbench-redis-reconnect-watch");
                    watch.setDaemon(true);
                    watch.start();
                }
            }
        });
    }

    /** "host:port" or "redis://host:port"; anything RedisURI takes. */
    static RedisURI parse(String url) {
        String full = url.contains("://") ? url : "redis://" + url;
        try {
            RedisURI parsed = RedisURI.create(full);
            if (parsed.getHost() == null || parsed.getHost().isEmpty()) {
                throw new IllegalArgumentException("no host");
            }
            return parsed;
        } catch (IllegalArgumentException e) {
            // whatever stands before '@' may be a password
            throw new UserError("--url must be host:port or redis://host:port for Redis, got '"
                    + url.replaceAll("//[^/@]*@", "//***@") + "'", e);
        }
    }

    /**
     * {@code uri} with TLS when {@code security} has it, and its login, which wins over the URL's:
     * a --password-file keeps the password off the command line. Without --user, the URL's user
     * (if any) logs in with that password.
     */
    static RedisURI secured(RedisURI uri, ClientSecurity security) {
        RedisURI.Builder b = RedisURI.builder(uri);
        if (security.usesTls()) {
            b.withSsl(true);
        }
        // Redis takes a token as the default user's password
        Secret password = security.password() != null ? security.password() : security.token();
        if (password != null) {
            String user = security.user() != null ? security.user() : urlUser(uri);
            if (user == null) {
                b.withPassword(password.reveal());
            } else {
                b.withAuthentication(user, password.reveal());
            }
        }
        return b.build();
    }

    private static String urlUser(RedisURI uri) {
        // the URL's credentials are static: resolving them waits for nothing
        RedisCredentials credentials = uri.getCredentialsProvider() == null ? null
                : uri.getCredentialsProvider().resolveCredentials().block();
        return credentials != null && credentials.hasUsername() ? credentials.getUsername() : null;
    }

    /** PEM files as lettuce takes them; no CA file trusts the JVM's own authorities. */
    private static SslOptions sslOptions(TlsFiles tls) {
        SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider();
        if (tls != null && tls.caFile() != null) {
            ssl.trustManager(tls.caFile().toFile());
        }
        if (tls != null && tls.mutual()) {
            ssl.keyManager(tls.clientCertFile().toFile(), tls.clientKeyFile().toFile(), null);
        }
        return ssl.build();
    }

    /** --url as given, without a password in it. */
    String url() {
        return url;
    }

    StatefulRedisConnection<byte[], byte[]> connect(String clientName) {
        return connectOnce(() -> client.connect(ByteArrayCodec.INSTANCE, named(clientName)));
    }

    /**
     * One connection, asked for a second time when lettuce saw the channel close during its
     * handshake: when the server refuses the login (WRONGPASS), lettuce closes the channel, and
     * the close can reach the handshake before the server's reply does, so the reply that names
     * the cause is lost; the second attempt almost always reports it. Any other failure is final.
     */
    private <C> C connectOnce(java.util.function.Supplier<C> connect) {
        try {
            return connect.get();
        } catch (RedisConnectionException first) {
            if (!closedDuringHandshake(first)) {
                throw connectError(first);
            }
            try {
                return connect.get();
            } catch (RedisConnectionException second) {
                throw connectError(second);
            }
        }
    }

    private static boolean closedDuringHandshake(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("Connection closed prematurely")) {
                return true;
            }
        }
        return false;
    }

    /** A connection of {@code --redis-client direct}, to the same server with the same credentials. */
    RespConnection connectDirect(String clientName) throws IOException {
        return DirectConnections.open(uri, clientName, connectTimeout);
    }

    StatefulRedisPubSubConnection<byte[], byte[]> connectPubSub(String clientName) {
        return connectOnce(() -> client.connectPubSub(ByteArrayCodec.INSTANCE, named(clientName)));
    }

    /** Runs {@code action} (on a thread of its own) whenever {@code connection} drops; not after {@link #forget}. */
    void onDisconnect(StatefulConnection<?, ?> connection, Runnable action) {
        onDisconnect.put(connection, action);
    }

    /** Before an intended close, so that it is not reported as a lost connection. */
    void forget(StatefulConnection<?, ?> connection) {
        onDisconnect.remove(connection);
    }

    /**
     * Waits until lettuce has {@code connection} back, up to the settings' reconnectFor; false if
     * it has not by then.
     */
    boolean awaitOpen(StatefulConnection<?, ?> connection) throws InterruptedException {
        long deadline = System.nanoTime() + reconnectFor.toNanos();
        while (!connection.isOpen()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(OPEN_POLL_MILLIS);
        }
        return true;
    }

    Duration reconnectFor() {
        return reconnectFor;
    }

    @Override
    public void close() {
        try {
            client.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT);
        } finally {
            resources.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** "lettuce 7.7.0.RELEASE" */
    static String clientVersion() {
        // the shaded jar drops lettuce's manifest, where LettuceVersion looks; Maven's properties stay
        try (InputStream in = RedisClient.class.getResourceAsStream("/META-INF/maven/io.lettuce/lettuce-core/pom.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                return "lettuce " + p.getProperty("version", "unknown");
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read lettuce's version from its jar", e);
        }
        String version = LettuceVersion.getVersion();
        return "lettuce " + (version == null ? "unknown" : version);
    }

    private RedisURI named(String clientName) {
        return RedisURI.builder(uri).withClientName(clientName).build();
    }

    private UserError connectError(RedisConnectionException e) {
        Throwable root = e;
        SSLException tls = null;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
            if (root instanceof SSLException && tls == null) {
                tls = (SSLException) root;
            }
        }
        String reason = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        if (tls != null) {
            return new UserError(tlsFailure(url, root, reason), e);
        }
        if (root instanceof RedisCommandExecutionException) {
            if (isLoginRefusal(reason)) {
                return new UserError("--url: the Redis server at " + url + " refused the login (" + reason
                        + "); check --user and --password-file, or the user and password in the URL", e);
            }
            // the server answered, and said no: a protocol, a full server
            return new UserError("--url: the Redis server at " + url + " refused the connection: " + reason, e);
        }
        boolean silent = root instanceof ConnectException || root instanceof ConnectTimeoutException;
        String why = silent ? "" : " (" + reason + (uri.isSsl() ? "" : "; a server that demands TLS drops a plaintext "
                + "client: use rediss:// and --ca") + ")";
        return new UserError("--url: no Redis server answered at " + url + " within " + connectTimeout.toSeconds()
                + " s" + why + "; check the address, or omit the flag to start a local broker", e);
    }

    /** WRONGPASS (a user or password the server does not know), NOAUTH (no login given to a server that wants one). */
    static boolean isLoginRefusal(String reply) {
        return reply.startsWith("WRONGPASS") || reply.startsWith("NOAUTH") || reply.startsWith("NOPERM")
                || reply.startsWith("ERR AUTH") || reply.startsWith("ERR invalid password");
    }

    /** One line for a TLS handshake that failed: an untrusted certificate says which flag trusts it. */
    static String tlsFailure(String url, Throwable root, String reason) {
        if (root instanceof CertPathBuilderException || root instanceof CertificateException) {
            return "--url: the Redis server at " + url + " presented a certificate that is not trusted (" + reason
                    + "); pass the CA that signed it with --ca FILE";
        }
        return "--url: the TLS handshake with the Redis server at " + url + " failed (" + reason
                + "); check --ca, and --client-cert/--client-key when the server demands a client certificate";
    }
}
