package dev.msgbench.core.security;

import java.nio.file.Files;
import java.nio.file.Path;

import javax.net.ssl.SSLContext;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;

/**
 * What a client trusts and, for mutual TLS, who it is: PEM files, the same for every system
 * (--ca, --client-cert, --client-key). A null CA trusts the JVM's own certificate authorities.
 */
public record TlsFiles(Path caFile, Path clientCertFile, Path clientKeyFile) {

    /** TLS that trusts the JVM's default authorities and presents no certificate. */
    public static final TlsFiles DEFAULT_TRUST = new TlsFiles(null, null, null);

    public TlsFiles {
        if ((clientCertFile == null) != (clientKeyFile == null)) {
            throw new UserError(clientCertFile == null
                    ? Phrase.of("%s needs %s (the certificate that goes with the key)", Setting.CLIENT_KEY,
                            Setting.CLIENT_CERT)
                    : Phrase.of("%s needs %s (the private key of the certificate)", Setting.CLIENT_CERT,
                            Setting.CLIENT_KEY));
        }
        requireReadable(Setting.CA, caFile);
        requireReadable(Setting.CLIENT_CERT, clientCertFile);
        requireReadable(Setting.CLIENT_KEY, clientKeyFile);
    }

    /** Whether the client presents a certificate of its own. */
    public boolean mutual() {
        return clientCertFile != null;
    }

    /** A TLS 1.2/1.3 context from these files, for clients that take a JSSE context. */
    public SSLContext sslContext() {
        return PemContexts.sslContext(this);
    }

    private static void requireReadable(Setting setting, Path file) {
        if (file != null && !Files.isReadable(file)) {
            throw new UserError(Phrase.of("%s: cannot read %s (%s)", setting, file,
                    Files.exists(file) ? "permission denied" : "no such file"));
        }
    }
}
