package dev.msgbench.pulsar.broker;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;

/**
 * How the suite's own HTTP calls reach a broker's web service (the admin REST API and the health
 * check): the JDK's client, over TLS with the given CA where the URL is https, and the login as HTTP
 * Basic, which Pulsar's AuthenticationProviderBasic reads as the binary protocol's login, or a
 * token as a Bearer header, which AuthenticationProviderToken reads.
 */
public final class PulsarWebAccess {

    /** An open broker's: no TLS context of our own, no login. */
    public static final PulsarWebAccess OPEN = new PulsarWebAccess(ClientSecurity.NONE, false);

    private final HttpClient http;
    /** "Basic BASE64(user:password)", "Bearer TOKEN", or null without a login. */
    private final Secret authorization;

    /**
     * @param followRedirects whether a redirect is followed: a broker sends a topic's call to the
     *                        broker that owns the topic (307, method and body kept)
     */
    public PulsarWebAccess(ClientSecurity security, boolean followRedirects) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .followRedirects(followRedirects ? HttpClient.Redirect.NORMAL : HttpClient.Redirect.NEVER);
        // without --ca, https:// trusts the JVM's authorities, as the binary protocol's client does
        if (security.usesTls()) {
            builder.sslContext(security.tls().sslContext());
        }
        this.http = builder.build();
        this.authorization = security.user() != null && security.password() != null
                ? Secret.of("Basic " + Base64.getEncoder().encodeToString(
                        (security.user() + ":" + security.password().reveal()).getBytes(StandardCharsets.UTF_8)))
                // AuthenticationProviderToken reads the web service's login from the Bearer header
                : security.token() != null ? Secret.of("Bearer " + security.token().reveal()) : null;
    }

    public HttpClient http() {
        return http;
    }

    /** A request that carries the login, if any; its URI is the caller's to set. */
    public HttpRequest.Builder request() {
        HttpRequest.Builder request = HttpRequest.newBuilder();
        if (authorization != null) {
            request.header("Authorization", authorization.reveal());
        }
        return request;
    }
}
