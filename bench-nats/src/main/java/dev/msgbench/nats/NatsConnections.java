package dev.msgbench.nats;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;

import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;

import dev.msgbench.core.UserError;
import dev.msgbench.nats.wire.ServerAddress;

/**
 * Opens the connections of a run, all alike: one per producer, per consumer and for setup.
 * jnats sets TCP_NODELAY on every socket it opens, so Nagle is off without an option.
 *
 * <p>A connection that loses its server reconnects without limit, every {@link #RECONNECT_WAIT}
 * (to the next server of a cluster at once), and resubscribes: the run rides through a restart and
 * measures it, and a server that does not come back is for the run's fault timeout to judge.
 * While it reconnects, jnats holds what is published in its reconnect buffer (8 MB by default)
 * and sends it once connected; a publish beyond that throws, which the publishers report as a
 * failed send ({@link #refusedWhileReconnecting}).
 */
final class NatsConnections {

    /** A restarted local server listens within a second; a short wait finds it soon after. */
    static final Duration RECONNECT_WAIT = Duration.ofMillis(100);

    private NatsConnections() {
    }

    static String clientVersion() {
        return "jnats " + Nats.CLIENT_VERSION;
    }

    /**
     * @param url            one or more servers, comma-separated, with or without nats:// (tls:// for TLS)
     * @param auth           TLS and the login
     * @param name           shown by the server's /connz, e.g. "msgbench-producer-3"
     * @param startedBySuite whether the suite started the server (a silent one is then not --url's fault)
     * @param errors         where asynchronous errors of this connection go
     * @throws UserError when no server answers within {@code timeout}, the server refuses the
     *                   login, or TLS fails (an untrusted certificate, TLS on one side only)
     */
    static Connection open(String url, NatsAuth auth, String name, Duration timeout, boolean startedBySuite,
                           ErrorRelay errors) throws InterruptedException {
        Options options;
        try {
            Options.Builder builder = new Options.Builder()
                    .servers(Arrays.stream(url.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toArray(String[]::new))
                    .connectionName(name)
                    .connectionTimeout(timeout)
                    .errorListener(errors)
                    .connectionListener(errors)
                    .maxReconnects(-1)
                    .reconnectWait(RECONNECT_WAIT)
                    // the suite names every subject itself; jnats' check of each publish's subject cost
                    // a sixth of the producer thread's time at a million messages a second
                    .noSubjectValidation();
            auth.applyTo(builder);
            options = builder.build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new UserError("--url: '" + ServerAddress.redactAll(url) + "' is not a NATS server address (host:port or nats://host:port, "
                    + "comma-separated): " + e.getMessage());
        }
        try {
            return Nats.connect(options);
        } catch (IOException e) {
            Exception problem = errors.connectionProblem();
            if (problem != null && problem != e) {
                e.addSuppressed(problem);
            }
            throw ConnectFailure.describe(e, ServerAddress.redactAll(url), timeout, auth, startedBySuite);
        }
    }

    /**
     * Whether jnats refused a publish because it is reconnecting and its reconnect buffer is full
     * (the message is then not sent: a failed send), rather than because the connection is closed.
     */
    static boolean refusedWhileReconnecting(Connection connection) {
        return connection.getStatus() != Connection.Status.CLOSED;
    }
}
