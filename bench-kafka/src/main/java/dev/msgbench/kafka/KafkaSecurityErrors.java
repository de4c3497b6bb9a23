package dev.msgbench.kafka;

import java.security.cert.CertPathValidatorException;

import javax.net.ssl.SSLHandshakeException;

import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;

import dev.msgbench.core.UserError;

/**
 * A refused login or a failed TLS handshake as the one line a user can act on, instead of the
 * client's exception chain (whose messages never hold the password, but say little).
 */
final class KafkaSecurityErrors {

    private KafkaSecurityErrors() {
    }

    /** @return the one-line error for a security failure in {@code failure}'s causes, else null */
    static UserError explain(KafkaSettings settings, Throwable failure) {
        String where = "kafka at " + settings.bootstrapServers();
        if (find(failure, SaslAuthenticationException.class) != null) {
            String user = settings.security().user();
            return new UserError(where + " refused the login of user '" + user + "' (" + settings.saslMechanism()
                    + "): wrong user or password");
        }
        if (find(failure, CertPathValidatorException.class) != null
                || String.valueOf(rootMessage(failure)).contains("unable to find valid certification path")) {
            return new UserError(where + ": certificate not trusted: give --ca with the authority that signed it");
        }
        if (find(failure, SslAuthenticationException.class) != null || find(failure, SSLHandshakeException.class) != null) {
            return new UserError(where + ": the TLS handshake failed (" + rootMessage(failure) + ")"
                    + (settings.security().tls() != null && !settings.security().tls().mutual()
                    ? "; if the broker demands a client certificate, give --client-cert and --client-key" : ""));
        }
        return null;
    }

    private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
