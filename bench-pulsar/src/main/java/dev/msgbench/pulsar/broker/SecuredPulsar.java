package dev.msgbench.pulsar.broker;

import java.nio.file.Path;
import java.util.Map;

import dev.msgbench.core.net.Placement;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.LocalSecurity;

/**
 * What a local Pulsar started with --secure makes once, in its temp dir's {@code tls} folder (mode
 * 700), for all its brokers (a standalone's one, a cluster's three): the certificates and the login
 * ({@link LocalSecurity}), the htpasswd file the brokers check passwords against, and the key
 * tokens are signed with ({@link TokenKey}); and how the suite's own clients log in to it.
 */
final class SecuredPulsar {

    private final LocalSecurity security;
    private final Path htpasswd;
    private final TokenKey tokenKey;

    private SecuredPulsar(LocalSecurity security, Path htpasswd, TokenKey tokenKey) {
        this.security = security;
        this.htpasswd = htpasswd;
        this.tokenKey = tokenKey;
    }

    /**
     * @param placement where the brokers listen, which the server certificate names
     */
    static SecuredPulsar create(Path tls, BrokerSecurity login, Placement placement) {
        LocalSecurity security = LocalSecurity.create(tls, login, placement);
        Path htpasswd = tls.resolve(SecuredBrokerConf.HTPASSWD);
        SecuredBrokerConf.writeHtpasswd(htpasswd, security.login());
        return new SecuredPulsar(security, htpasswd, TokenKey.create(tls, security.login().user()));
    }

    /** One broker's TLS ports and login ({@link SecuredBrokerConf#settings}). */
    Map<String, String> brokerSettings(int brokerPort, int webPort) {
        return SecuredBrokerConf.settings(security, htpasswd, tokenKey, brokerPort, webPort);
    }

    LocalSecurity local() {
        return security;
    }

    /** TLS with the CA, and the login {@code login} asks for: the user and password, or the token. */
    ClientSecurity client(PulsarLogin login) {
        if (login == PulsarLogin.BASIC) {
            return security.client();
        }
        return new ClientSecurity(security.client().tls(), null, null, tokenKey.token());
    }

    /** The health check's: TLS with the CA and the user's login. */
    PulsarWebAccess web() {
        return new PulsarWebAccess(security.client(), false);
    }

    Path tokenFile() {
        return tokenKey.tokenFile();
    }
}
