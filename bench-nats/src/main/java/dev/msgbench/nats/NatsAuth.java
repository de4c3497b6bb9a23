package dev.msgbench.nats;

import java.nio.file.Path;

import io.nats.client.Nats;
import io.nats.client.Options;

import dev.msgbench.core.UserError;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;

/**
 * How a NATS client proves who it is and whom it trusts: the suite's common TLS and login
 * ({@link ClientSecurity}: user and password, or a token), or NATS' own NKey seed or credentials
 * file (a JWT and its seed). A server takes one way of logging in per connection.
 *
 * @param security  TLS and a user/password or token; {@link ClientSecurity#NONE} for neither
 * @param nkeySeed  an NKey seed (--nats-nkey), or null
 * @param credsFile a credentials file (--nats-creds), or null; jnats reads it at each connect
 */
public record NatsAuth(ClientSecurity security, Secret nkeySeed, Path credsFile) {

    public static final NatsAuth NONE = new NatsAuth(ClientSecurity.NONE, null, null);

    public NatsAuth {
        security = security == null ? ClientSecurity.NONE : security;
        if (security.password() != null && security.user() == null) {
            throw new UserError("--password-file: NATS logs in with a user and its password; add --user, "
                    + "or give a token with --nats-token-file");
        }
        int logins = (security.user() != null ? 1 : 0) + (security.token() != null ? 1 : 0)
                + (nkeySeed != null ? 1 : 0) + (credsFile != null ? 1 : 0);
        if (logins > 1) {
            throw new UserError("--user, --nats-token-file, --nats-nkey and --nats-creds are each a way of logging in "
                    + "to NATS, and a connection uses one; give one of them");
        }
    }

    public NatsAuth withSecurity(ClientSecurity s) {
        return new NatsAuth(s, nkeySeed, credsFile);
    }

    /** Whether the connection uses TLS or logs in: what --nats-client direct does not speak. */
    public boolean secured() {
        return security.usesTls() || security.hasLogin() || nkeySeed != null || credsFile != null;
    }

    void applyTo(Options.Builder options) {
        if (security.usesTls()) {
            options.sslContext(security.tls().sslContext());
        }
        if (security.user() != null) {
            options.userInfo(security.user(), security.password() == null ? null : security.password().reveal());
        }
        if (security.token() != null) {
            options.token(security.token().reveal().toCharArray());
        }
        if (nkeySeed != null) {
            options.authHandler(Nats.staticCredentials(null, nkeySeed.reveal().toCharArray()));
        }
        if (credsFile != null) {
            options.authHandler(Nats.credentials(credsFile.toString()));
        }
    }

    /** What is used, never a secret: for the results. */
    @Override
    public String toString() {
        return security + (nkeySeed != null ? ", NKey" : "") + (credsFile != null ? ", credentials file " + credsFile : "");
    }
}
