package dev.msgbench.rabbit;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.PossibleAuthenticationFailureException;
import dev.msgbench.core.UserError;
import java.io.IOException;
import java.net.URISyntaxException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * Opens the adapter's connections, all configured alike: one per producer, one per consumer and one
 * for declaring queues.
 *
 * <p>IMPLEMENTATION NOTES: blocking socket I/O (the client's default, not NIO): basicPublish has
 * written every frame of a message to the socket before it returns, which is what lets the engine
 * reuse its array. Automatic recovery is on, with topology recovery, so that a run rides through a
 * broker restart (fault injection): connections come back every {@value #RECOVERY_INTERVAL_MILLIS} ms
 * of trying (the client's default of 5 s would add up to 5 s to every outage measured), consumers are
 * registered again. The failure is not hidden: confirms outstanding at the loss and publishes while
 * the connection is down are reported failed, and what is lost is counted.
 */
final class RabbitConnections {

    /** The client refuses inbound bodies above 64 MiB unless told otherwise. */
    private static final int CLIENT_DEFAULT_MAX_INBOUND_BYTES = 64 * 1024 * 1024;
    private static final int INBOUND_MARGIN_BYTES = 64 * 1024;
    static final long RECOVERY_INTERVAL_MILLIS = 500;

    private final ConnectionFactory factory;
    private final String address;
    private final Duration timeout;

    RabbitConnections(String url, int messageSizeBytes, Duration timeout) {
        this.factory = factory(url);
        this.timeout = timeout;
        int timeoutMillis = (int) timeout.toMillis();
        factory.setConnectionTimeout(timeoutMillis);
        factory.setHandshakeTimeout(timeoutMillis);
        factory.setAutomaticRecoveryEnabled(true);
        factory.setTopologyRecoveryEnabled(true);
        factory.setNetworkRecoveryInterval(RECOVERY_INTERVAL_MILLIS);
        // the client's default configurator does the same today; explicit, because E3 requires it
        factory.setSocketConfigurator(socket -> socket.setTcpNoDelay(true));
        factory.setMaxInboundMessageBodySize(Math.max(CLIENT_DEFAULT_MAX_INBOUND_BYTES,
                messageSizeBytes + INBOUND_MARGIN_BYTES));
        String vhost = factory.getVirtualHost();
        this.address = "amqp://" + factory.getHost() + ":" + factory.getPort() + ("/".equals(vhost) ? "" : "/" + vhost);
    }

    /** The broker's address without credentials, for messages and results. */
    String address() {
        return address;
    }

    /**
     * @param name the client-provided connection name the broker shows, e.g. msgbench-producer-3
     * @throws UserError when the broker cannot be reached or refuses the login
     */
    Connection open(String name) throws InterruptedException {
        try {
            return factory.newConnection(name);
        } catch (PossibleAuthenticationFailureException e) {
            throw new UserError("--url: RabbitMQ at " + address + " refused the login (" + oneLine(e.getMessage())
                    + "); give the user and password in the URL: amqp://USER:PASSWORD@HOST:PORT", e);
        } catch (IOException | TimeoutException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("interrupted while connecting to " + address);
            }
            throw new UserError("--url: no RabbitMQ broker answered at " + address + " within "
                    + timeout.toSeconds() + " s (" + rootMessage(e) + "); check the address, or omit --url to start "
                    + "a local broker", e);
        }
    }

    private static ConnectionFactory factory(String url) {
        ConnectionFactory factory = new ConnectionFactory();
        String usage = "--url must be amqp://[USER:PASSWORD@]HOST[:PORT][/VHOST] or HOST:PORT, got '" + url + "'";
        try {
            if (url.startsWith("amqp://") || url.startsWith("amqps://")) {
                if (new java.net.URI(url).getHost() == null) {
                    // the client would connect to localhost instead of refusing a port like :notaport
                    throw new UserError(usage);
                }
                factory.setUri(url);
                return factory;
            }
            int colon = url.lastIndexOf(':');
            if (colon <= 0 || colon == url.length() - 1 || url.contains("/")) {
                throw new UserError(usage);
            }
            factory.setHost(url.substring(0, colon));
            factory.setPort(Integer.parseInt(url.substring(colon + 1)));
            return factory;
        } catch (URISyntaxException | GeneralSecurityException | IllegalArgumentException e) {
            throw new UserError(usage, e);
        }
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : oneLine(root.getMessage());
    }

    private static String oneLine(String message) {
        return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ");
    }
}
