package dev.msgbench.rabbit;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Address;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.PossibleAuthenticationFailureException;
import com.rabbitmq.client.ShutdownSignalException;
import dev.msgbench.core.UserError;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.TlsFiles;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.net.URISyntaxException;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import javax.net.ssl.SSLException;

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
 * the connection is down are reported failed, and what is lost is counted. Given a cluster's nodes
 * (URLs separated by commas), the client connects to one of them, in random order, and recovers to
 * another when its node goes away.
 */
final class RabbitConnections {

    /** The client refuses inbound bodies above 64 MiB unless told otherwise. */
    private static final int CLIENT_DEFAULT_MAX_INBOUND_BYTES = 64 * 1024 * 1024;
    private static final int INBOUND_MARGIN_BYTES = 64 * 1024;
    static final long RECOVERY_INTERVAL_MILLIS = 500;

    private final ConnectionFactory factory;
    private final List<Address> nodes;
    private final String address;
    private final Duration timeout;
    private final boolean clientCertificate;

    /**
     * @param security TLS, used with amqps:// URLs and whenever --ca or a client certificate is
     *                 given; its login wins over the URL's
     */
    RabbitConnections(String url, ClientSecurity security, int messageSizeBytes, Duration timeout) {
        String[] urls = url.split(",", -1);
        this.factory = factory(urls[0].strip(), url);
        this.nodes = nodes(factory, urls, url);
        this.timeout = timeout;
        this.clientCertificate = security.usesTls() && security.tls().mutual();
        int timeoutMillis = (int) timeout.toMillis();
        factory.setConnectionTimeout(timeoutMillis);
        factory.setHandshakeTimeout(timeoutMillis);
        factory.setAutomaticRecoveryEnabled(true);
        factory.setTopologyRecoveryEnabled(true);
        factory.setNetworkRecoveryInterval(RECOVERY_INTERVAL_MILLIS);
        factory.setExceptionHandler(new OneLineExceptionHandler());
        // the client's default configurator does the same today; explicit, because E3 requires it
        factory.setSocketConfigurator(socket -> socket.setTcpNoDelay(true));
        secure(factory, security);
        factory.setMaxInboundMessageBodySize(Math.max(CLIENT_DEFAULT_MAX_INBOUND_BYTES,
                messageSizeBytes + INBOUND_MARGIN_BYTES));
        String vhost = factory.getVirtualHost();
        this.address = (factory.isSSL() ? "amqps://" : "amqp://")
                + nodes.stream().map(a -> a.getHost() + ":" + a.getPort()).collect(Collectors.joining(","))
                + ("/".equals(vhost) ? "" : "/" + vhost);
    }

    /**
     * The first URL gives the scheme, login and virtual host; every URL a node's host and port.
     * Nodes of one cluster share those, so a URL that differs is refused rather than ignored.
     */
    private static List<Address> nodes(ConnectionFactory first, String[] urls, String url) {
        List<Address> nodes = new ArrayList<>();
        for (String each : urls) {
            ConnectionFactory node = factory(each.strip(), url);
            if (node.isSSL() != first.isSSL() || !node.getVirtualHost().equals(first.getVirtualHost())) {
                throw new UserError("--url: the nodes of one cluster must share the scheme (amqp:// or amqps://) and "
                        + "the virtual host, got '" + url + "'");
            }
            nodes.add(new Address(node.getHost(), node.getPort()));
        }
        return nodes;
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
            return factory.newConnection(nodes, name);
        } catch (PossibleAuthenticationFailureException e) {
            throw new UserError("--user: RabbitMQ at " + address + " refused the login of user '" + factory.getUsername()
                    + "' (" + oneLine(e.getMessage()) + "); check --user and --password-file, or the URL's "
                    + "amqp://USER:PASSWORD@HOST", e);
        } catch (IOException | TimeoutException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("interrupted while connecting to " + address);
            }
            String refusedVhost = refusedVirtualHost(e);
            if (refusedVhost != null) {
                throw new UserError("--url: RabbitMQ at " + address + " refused virtual host '" + factory.getVirtualHost()
                        + "' to user '" + factory.getUsername() + "' (" + refusedVhost + "); the URL's path is the "
                        + "virtual host: amqp://HOST:PORT/VHOST, %2F for /", e);
            }
            SSLException tls = causeOf(e, SSLException.class);
            if (tls != null) {
                throw tlsFailure(tls, e);
            }
            if (factory.isSSL() && !clientCertificate && closedByPeer(e)) {
                // TLS 1.3: the server checks the client's certificate after the client's handshake is done
                throw new UserError("--client-cert: RabbitMQ at " + address + " closed the TLS connection ("
                        + rootMessage(e) + "): it may demand a client certificate; give --client-cert and --client-key",
                        e);
            }
            throw new UserError("--url: no RabbitMQ broker answered at " + address + " within "
                    + timeout.toSeconds() + " s (" + rootMessage(e) + "); check the address, or omit --url to start "
                    + "a local broker", e);
        }
    }

    /**
     * amqps:// alone would make the client trust every certificate (its setUri default): the
     * context is always ours, --ca's authority or the JVM's, and the host name is checked.
     */
    private static void secure(ConnectionFactory factory, ClientSecurity security) {
        if (factory.isSSL() || security.usesTls()) {
            TlsFiles tls = security.usesTls() ? security.tls() : TlsFiles.DEFAULT_TRUST;
            factory.useSslProtocol(tls.sslContext());
            // after setSocketConfigurator, which would replace the check
            factory.enableHostnameVerification();
        }
        if (security.user() != null) {
            factory.setUsername(security.user());
        }
        if (security.password() != null) {
            factory.setPassword(security.password().reveal());
        }
    }

    /** An untrusted certificate names --ca; other handshake failures say what TLS reported. */
    private UserError tlsFailure(SSLException tls, Exception e) {
        if (causeOf(e, CertificateException.class) != null || rootMessage(tls).contains("certification path")) {
            return new UserError("--ca: the TLS certificate of RabbitMQ at " + address + " is not trusted ("
                    + rootMessage(tls) + "); give the authority that signed it with --ca FILE (PEM)", e);
        }
        if (!clientCertificate && rootMessage(tls).contains("certificate_required")) {
            return new UserError("--client-cert: RabbitMQ at " + address + " demands a client certificate ("
                    + rootMessage(tls) + "); give --client-cert and --client-key", e);
        }
        if (rootMessage(tls).contains("Unsupported or unrecognized SSL message")) {
            return new UserError("--url: RabbitMQ at " + address + " does not speak TLS on port " + factory.getPort()
                    + " (" + rootMessage(tls) + "); use amqp:// for a plain port, or its TLS port (5671 by default)", e);
        }
        return new UserError("--url: the TLS handshake with RabbitMQ at " + address + " failed (" + rootMessage(tls)
                + "); check --ca, --client-cert and --client-key", e);
    }

    /** The server's reason when it closed the connection for the virtual host (530 NOT_ALLOWED), else null. */
    private static String refusedVirtualHost(Exception e) {
        ShutdownSignalException closed = causeOf(e, ShutdownSignalException.class);
        if (closed != null && closed.getReason() instanceof AMQP.Connection.Close) {
            AMQP.Connection.Close close = (AMQP.Connection.Close) closed.getReason();
            if (close.getReplyCode() == AMQP.NOT_ALLOWED) {
                return oneLine(close.getReplyText());
            }
        }
        return null;
    }

    private static boolean closedByPeer(Exception e) {
        SocketException reset = causeOf(e, SocketException.class);
        return causeOf(e, EOFException.class) != null
                || reset != null && String.valueOf(reset.getMessage()).matches(".*(reset|Broken pipe).*");
    }

    private static <T extends Throwable> T causeOf(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    /** @param whole the whole --url, for the message */
    private static ConnectionFactory factory(String url, String whole) {
        ConnectionFactory factory = new ConnectionFactory();
        String usage = "--url must be amqp://[USER:PASSWORD@]HOST[:PORT][/VHOST] or HOST:PORT, got '" + whole + "'";
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
