package dev.msgbench.rabbit;

import com.rabbitmq.stream.EnvironmentBuilder;
import com.rabbitmq.stream.impl.Client;
import dev.msgbench.core.UserError;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.TlsFiles;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.net.URI;
import java.util.List;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocketFactory;

/**
 * TLS and the login of a stream-client connection, the same for the run's environment, the
 * leader look-up and the version greeting: {@code rabbitmq-stream+tls://} (stream-client's scheme
 * for TLS) or --ca turns TLS on; --user and --password-file win over a URL's login.
 */
final class StreamClientSecurity {

    static final String PLAIN_SCHEME = "rabbitmq-stream";
    static final String TLS_SCHEME = "rabbitmq-stream+tls";
    /** The stream protocol's ports without one in the URL, as stream-client assumes them. */
    static final int DEFAULT_PORT = 5552;
    static final int DEFAULT_TLS_PORT = 5551;

    private final boolean tls;
    private final ClientSecurity security;
    /** Made once: the leader look-up connects again at every fault aimed at the leader. */
    private SslContext context;

    private StreamClientSecurity(boolean tls, ClientSecurity security) {
        this.tls = tls;
        this.security = security;
    }

    /**
     * @throws UserError when a URI is not the stream protocol's, or the nodes' schemes differ
     */
    static StreamClientSecurity of(List<String> uris, ClientSecurity security) {
        Boolean tlsScheme = null;
        for (String uri : uris) {
            String scheme = scheme(uri);
            boolean secured = TLS_SCHEME.equals(scheme);
            if (!secured && !PLAIN_SCHEME.equals(scheme)) {
                throw new UserError("--url must be rabbitmq-stream://[USER:PASSWORD@]HOST[:PORT] or "
                        + "rabbitmq-stream+tls://[USER:PASSWORD@]HOST[:PORT] for rabbitmq-streams, several separated "
                        + "by commas, got '" + hostAndPort(uri) + "'");
            }
            if (tlsScheme != null && tlsScheme != secured) {
                throw new UserError("--url: the nodes of one cluster must share the scheme (rabbitmq-stream:// or "
                        + "rabbitmq-stream+tls://), got '" + hostAndPort(uris.get(0)) + "' and '" + hostAndPort(uri)
                        + "'");
            }
            tlsScheme = secured;
        }
        return new StreamClientSecurity(Boolean.TRUE.equals(tlsScheme) || security.usesTls(), security);
    }

    boolean usesTls() {
        return tls;
    }

    /** Without --ca, rabbitmq-stream+tls:// trusts the JVM's authorities, never everything. */
    private TlsFiles tlsFiles() {
        return security.usesTls() ? security.tls() : TlsFiles.DEFAULT_TRUST;
    }

    private synchronized SslContext context() {
        if (context == null) {
            context = nettyContext(tlsFiles());
        }
        return context;
    }

    EnvironmentBuilder apply(EnvironmentBuilder builder) {
        if (tls) {
            builder.tls().sslContext(context());
        }
        if (security.user() != null) {
            builder.username(security.user());
        }
        if (security.password() != null) {
            builder.password(security.password().reveal());
        }
        return builder;
    }

    Client.ClientParameters apply(Client.ClientParameters parameters) {
        if (tls) {
            parameters.sslContext(context());
        }
        if (security.user() != null) {
            parameters.username(security.user());
        }
        if (security.password() != null) {
            parameters.password(security.password().reveal());
        }
        return parameters;
    }

    /** For the peer-properties greeting; null when the connection is plain. */
    SSLSocketFactory greeting() {
        return tls ? tlsFiles().sslContext().getSocketFactory() : null;
    }

    int port(URI uri) {
        return uri.getPort() != -1 ? uri.getPort() : tls ? DEFAULT_TLS_PORT : DEFAULT_PORT;
    }

    /**
     * stream-client's TLS is netty's, whose client checks that the certificate names the host it
     * connects to (endpoint identification HTTPS, said here rather than left to netty's default).
     */
    static SslContext nettyContext(TlsFiles files) {
        try {
            SslContextBuilder builder = SslContextBuilder.forClient().endpointIdentificationAlgorithm("HTTPS");
            if (files.caFile() != null) {
                builder.trustManager(files.caFile().toFile());
            }
            if (files.mutual()) {
                builder.keyManager(files.clientCertFile().toFile(), files.clientKeyFile().toFile());
            }
            return builder.build();
        } catch (SSLException | IllegalArgumentException e) {
            throw new UserError("--ca: cannot use " + files + " for TLS to RabbitMQ Streams: " + e.getMessage(), e);
        }
    }

    /** HOST:PORT with the scheme, never a login the URI holds. */
    static String hostAndPort(String uri) {
        int at = uri.indexOf('@');
        int schemeEnd = uri.indexOf("://");
        return at < 0 || schemeEnd < 0 || at < schemeEnd ? uri : uri.substring(0, schemeEnd + 3) + uri.substring(at + 1);
    }

    private static String scheme(String uri) {
        int end = uri.indexOf("://");
        return end < 0 ? "" : uri.substring(0, end);
    }
}
