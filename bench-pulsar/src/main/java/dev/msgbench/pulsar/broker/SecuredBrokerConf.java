package dev.msgbench.pulsar.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.msgbench.core.UserError;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.LocalSecurity;
import dev.msgbench.core.security.Openssl;
import dev.msgbench.core.security.Pki;

/**
 * The settings of a broker started with --secure, a standalone's (standalone.conf) or each of a
 * cluster's (broker.conf): TLS only, on the binary port and the web service alike (the plain ports
 * are left empty, so that Pulsar opens none), and a login on both.
 *
 * <p>Clients log in with Pulsar's basic authentication (AuthenticationProviderBasic): user and
 * password, checked against an htpasswd file. Pulsar 4.0 reads two hash forms there, Apache's MD5
 * ({@code $apr1$}) and DES crypt, which looks at the first 8 characters of a password only; the
 * file holds the apr1 hash, made by {@code openssl passwd -apr1} with the password on its standard
 * input, so that it is on no command line. No bcrypt: Pulsar does not read it.
 *
 * <p>Or they log in with a token (AuthenticationProviderToken, --pulsar-auth token): a JWT signed
 * with a secret key the suite makes in the temp dir ({@link TokenKey}); the broker reads the key,
 * never the token. Both providers are on at once, so one standalone serves either login.
 *
 * <p>The broker's own client (the standalone creates its namespaces through its admin API, the
 * health check writes through its binary port, and a cluster's brokers call one another: a lookup,
 * a topic's admin call sent on to its owner) goes over TLS too and logs in with the throwaway client
 * certificate (AuthenticationProviderTls), so that the password is in no file the broker reads,
 * only its hash, and the token in none either.
 *
 * <p>authorizationEnabled stays false: the login is the suite's one user, who may do everything;
 * superUserRoles names it all the same, for a user who turns authorization on with --broker-prop.
 */
final class SecuredBrokerConf {

    static final String HTPASSWD = "htpasswd";
    private static final String BASIC_PROVIDER = "org.apache.pulsar.broker.authentication.AuthenticationProviderBasic";
    private static final String TOKEN_PROVIDER = "org.apache.pulsar.broker.authentication.AuthenticationProviderToken";
    private static final String TLS_PROVIDER = "org.apache.pulsar.broker.authentication.AuthenticationProviderTls";
    private static final String TLS_CLIENT_AUTH = "org.apache.pulsar.client.impl.auth.AuthenticationTls";

    private SecuredBrokerConf() {
    }

    /**
     * The settings that replace the plain ports of {@link StandaloneConf#write}: ports and paths,
     * then {@link #recorded}.
     *
     * @param htpasswd the file {@link #writeHtpasswd} wrote
     * @param tokenKey the key tokens are signed with
     */
    static Map<String, String> settings(LocalSecurity security, Path htpasswd, TokenKey tokenKey, int brokerPort,
                                        int webPort) {
        Pki pki = security.pki();
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("brokerServicePort", "");
        conf.put("brokerServicePortTls", Integer.toString(brokerPort));
        conf.put("webServicePort", "");
        conf.put("webServicePortTls", Integer.toString(webPort));
        conf.put("tlsCertificateFilePath", pki.serverCertFile().toString());
        conf.put("tlsKeyFilePath", pki.serverKeyFile().toString());
        conf.put("tlsTrustCertsFilePath", pki.caFile().toString());
        conf.put("basicAuthConf", htpasswd.toString());
        conf.put("tokenSecretKey", tokenKey.brokerSetting());
        conf.put("superUserRoles", security.login().user());
        conf.put("brokerClientTrustCertsFilePath", pki.caFile().toString());
        conf.put("brokerClientCertificateFilePath", pki.clientCertFile().toString());
        conf.put("brokerClientKeyFilePath", pki.clientKeyFile().toString());
        conf.put("brokerClientAuthenticationParameters", "{\"tlsCertFile\":\"" + pki.clientCertFile()
                + "\",\"tlsKeyFile\":\"" + pki.clientKeyFile() + "\"}");
        conf.putAll(recorded(security.login().mutualTls()));
        return Collections.unmodifiableMap(conf);
    }

    /** The settings without ports and paths, as the result records them. */
    static Map<String, String> recorded(boolean mutualTls) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("tlsRequireTrustedClientCertOnConnect", Boolean.toString(mutualTls));
        conf.put("authenticationEnabled", "true");
        conf.put("authenticationProviders", BASIC_PROVIDER + "," + TOKEN_PROVIDER + "," + TLS_PROVIDER);
        conf.put("authorizationEnabled", "false");
        conf.put("brokerClientTlsEnabled", "true");
        conf.put("brokerClientAuthenticationPlugin", TLS_CLIENT_AUTH);
        return Collections.unmodifiableMap(conf);
    }

    /** {@code USER:$apr1$SALT$HASH}, one line, owner-only. */
    static void writeHtpasswd(Path file, BrokerSecurity login) {
        if (login.user().contains(":") || login.user().contains("\n") || login.password().reveal().contains("\n")) {
            throw new UserError("--secure: a Pulsar login's user has no ':' and neither user nor password a line "
                    + "break; the user is '" + login.user() + "'");
        }
        try {
            Files.writeString(file, "", StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            Files.writeString(file, login.user() + ":" + apr1(file.getParent(), login) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static String apr1(Path dir, BrokerSecurity login) throws IOException {
        String hash = Openssl.run(dir, login.password().reveal() + "\n", "the hash of Pulsar's login", "passwd", "-apr1", "-stdin");
        if (!hash.startsWith("$apr1$")) {
            throw new IOException("openssl passwd -apr1 printed no apr1 hash: " + hash);
        }
        return hash;
    }
}
