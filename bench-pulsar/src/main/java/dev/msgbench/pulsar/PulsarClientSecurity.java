package dev.msgbench.pulsar;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.pulsar.client.api.AuthenticationFactory;
import org.apache.pulsar.client.api.ClientBuilder;
import org.apache.pulsar.client.api.PulsarClientException;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.msgbench.core.UserError;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.TlsFiles;

/**
 * The suite's {@link ClientSecurity} as pulsar-client takes it: TLS on pulsar+ssl:// URLs with
 * --ca (and a client certificate for mutual TLS), and the login as Pulsar's basic authentication
 * (AuthenticationBasic, which the broker checks with AuthenticationProviderBasic), or a token
 * (AuthenticationToken, checked with AuthenticationProviderToken), sent as it is: a JWT the broker
 * verifies with its key.
 */
final class PulsarClientSecurity {

    static final String TLS_SCHEME = "pulsar+ssl://";
    private static final String BASIC = "org.apache.pulsar.client.impl.auth.AuthenticationBasic";
    private static final ObjectMapper JSON = new ObjectMapper();

    private PulsarClientSecurity() {
    }

    /**
     * Refuses what Pulsar cannot do with these flags, before anything connects: TLS files on a
     * plain URL, half a login.
     */
    static void check(String serviceUrl, ClientSecurity security) {
        if (security.usesTls() && !serviceUrl.startsWith(TLS_SCHEME)) {
            throw new UserError((security.tls().caFile() != null ? "--ca" : "--client-cert") + ": TLS needs Pulsar's "
                    + "TLS URL, pulsar+ssl://HOST:6651, got --url '" + serviceUrl + "'");
        }
        if (security.token() != null && (security.user() != null || security.password() != null)) {
            throw new UserError("--pulsar-token-file and --user are two logins (a token, a user and password); give "
                    + "one of them");
        }
        if ((security.user() == null) != (security.password() == null)) {
            throw new UserError(security.user() == null
                    ? "--password-file needs --user for Pulsar's basic authentication (user and password)"
                    : "--user needs --password-file (or --password-env) for Pulsar's basic authentication");
        }
    }

    /** TLS files and the login onto {@code builder}; a pulsar+ssl:// URL without --ca trusts the JVM's authorities. */
    static void applyTo(ClientBuilder builder, ClientSecurity security) throws PulsarClientException {
        if (security.usesTls()) {
            TlsFiles tls = security.tls();
            if (tls.caFile() != null) {
                builder.tlsTrustCertsFilePath(tls.caFile().toString());
            }
            if (tls.mutual()) {
                builder.tlsCertificateFilePath(tls.clientCertFile().toString())
                        .tlsKeyFilePath(tls.clientKeyFile().toString());
            }
        }
        builder.enableTlsHostnameVerification(true);
        if (security.user() != null) {
            builder.authentication(AuthenticationFactory.create(BASIC, basicParams(security)));
        } else if (security.token() != null) {
            builder.authentication(AuthenticationFactory.token(security.token().reveal()));
        }
    }

    /** For the result: "basic" (user and password), "token" or "none"; never the secret. */
    static String login(ClientSecurity security) {
        return security.user() != null ? "basic" : security.token() != null ? "token" : "none";
    }

    private static String basicParams(ClientSecurity security) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("userId", security.user());
        params.put("password", security.password().reveal());
        try {
            return JSON.writeValueAsString(params);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the login as JSON", e);
        }
    }
}
