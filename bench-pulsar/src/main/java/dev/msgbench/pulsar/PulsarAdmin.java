package dev.msgbench.pulsar;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLHandshakeException;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.msgbench.core.UserError;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.pulsar.broker.PulsarWebAccess;

/**
 * The few calls of Pulsar's admin REST API (the broker's web service) that a run needs: topics,
 * the namespace's persistence policy and the broker's configuration, over the JDK's HTTP client, so
 * that the jar needs no pulsar-client-admin with its Jersey and Jackson of another version. A
 * secured broker's is https with the run's CA, and the login goes as HTTP Basic or a Bearer token.
 */
final class PulsarAdmin {

    /** Where the run's topics live: the namespace every Pulsar has. */
    static final String NAMESPACE = "public/default";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final String baseUrl;
    /** One per broker of Pulsar's multi-host form: http://HOST1:P1,HOST2:P2 is two. */
    private final List<String> brokers;
    /** The broker that answered last: asked first, so that a dead one costs one failed connect. */
    private volatile int answering;
    /** Whether any broker ever answered: until one did, nothing answering is a wrong --pulsar-admin-url. */
    private volatile boolean answeredOnce;
    private final PulsarWebAccess web;
    private final ClientSecurity security;

    PulsarAdmin(String baseUrl, ClientSecurity security) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.brokers = brokers(this.baseUrl);
        this.security = security;
        // a broker redirects a topic's call to the broker that owns the topic (307, method and body kept)
        this.web = new PulsarWebAccess(security, true);
    }

    /** The broker's version, as GET /admin/v2/brokers/version has it. */
    String brokerVersion() throws IOException, InterruptedException {
        return call("GET", "/admin/v2/brokers/version", null).replace("\"", "").strip();
    }

    /** Every setting of the broker in effect, as strings (GET /admin/v2/brokers/configuration/runtime). */
    Map<String, String> runtimeConfiguration() throws IOException, InterruptedException {
        return JSON.readValue(call("GET", "/admin/v2/brokers/configuration/runtime", null), new TypeReference<>() {
        });
    }

    /**
     * The namespace's persistence policy (bookkeeperEnsemble, bookkeeperWriteQuorum,
     * bookkeeperAckQuorum), or an empty map where it sets none and the broker's defaults apply.
     */
    Map<String, Object> persistence() throws IOException, InterruptedException {
        String body = call("GET", "/admin/v2/namespaces/" + NAMESPACE + "/persistence", null).strip();
        if (body.isEmpty() || body.equals("null")) {
            return Map.of();
        }
        return JSON.readValue(body, new TypeReference<LinkedHashMap<String, Object>>() {
        });
    }

    /** Sets the namespace's persistence policy: ledgers made from now on use these quorums. */
    void setPersistence(int ensemble, int writeQuorum, int ackQuorum) throws IOException, InterruptedException {
        Map<String, Object> policy = new LinkedHashMap<>();
        policy.put("bookkeeperEnsemble", ensemble);
        policy.put("bookkeeperWriteQuorum", writeQuorum);
        policy.put("bookkeeperAckQuorum", ackQuorum);
        policy.put("managedLedgerMaxMarkDeleteRate", 0.0);
        call("POST", "/admin/v2/namespaces/" + NAMESPACE + "/persistence", JSON.writeValueAsString(policy));
    }

    /** Creates a topic: partitioned with {@code partitions} above 0; one made before is kept as it is. */
    void createTopic(String topic, int partitions) throws IOException, InterruptedException {
        String path = topicPath(topic) + (partitions > 0 ? "/partitions" : "");
        call("PUT", path, partitions > 0 ? Integer.toString(partitions) : "", 409);
    }

    /**
     * The service URL of the broker that owns {@code topic} now, as a lookup answers: pulsar://HOST:PORT,
     * or with {@code tls} its pulsar+ssl:// one.
     */
    String ownerOf(String topic, boolean tls) throws IOException, InterruptedException {
        String body = call("GET", "/lookup/v2/topic/persistent/" + NAMESPACE + "/"
                + URLEncoder.encode(topic, StandardCharsets.UTF_8), null);
        return JSON.readTree(body).path(tls ? "brokerUrlTls" : "brokerUrl").asText();
    }

    /** The bytes the broker received for the topic (its stats' bytesInCounter; a partitioned topic's over its partitions). */
    long bytesIn(String topic, boolean partitioned) throws IOException, InterruptedException {
        String body = call("GET", topicPath(topic) + (partitioned ? "/partitioned-stats" : "/stats"), null);
        return JSON.readTree(body).path("bytesInCounter").asLong();
    }

    /** Deletes a topic with its subscriptions, whether or not anyone is connected. */
    void deleteTopic(String topic, boolean partitioned) throws IOException, InterruptedException {
        call("DELETE", topicPath(topic) + (partitioned ? "/partitions" : "") + "?force=true", null, 404);
    }

    private static String topicPath(String topic) {
        return "/admin/v2/persistent/" + NAMESPACE + "/" + URLEncoder.encode(topic, StandardCharsets.UTF_8);
    }

    /** http://A:1,B:2 as http://A:1 and http://B:2, Pulsar's multi-host form. */
    static List<String> brokers(String baseUrl) {
        int hosts = baseUrl.indexOf("://") + 3;
        String scheme = baseUrl.substring(0, hosts);
        List<String> all = new ArrayList<>();
        for (String host : baseUrl.substring(hosts).split(",")) {
            all.add(host.startsWith(scheme) ? host : scheme + host);
        }
        return all;
    }

    /**
     * @param accepted status codes beside 2xx that mean the state asked for is there already
     * @throws UserError for any other answer, naming the call and what the broker said
     */
    private String call(String method, String path, String jsonBody, int... accepted)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = web.request().timeout(TIMEOUT).header("Accept", "application/json");
        if (jsonBody == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(jsonBody));
        }
        HttpResponse<String> response = send(request, path);
        int status = response.statusCode();
        if (status / 100 == 2) {
            return response.body();
        }
        for (int ok : accepted) {
            if (status == ok) {
                return "";
            }
        }
        if (status == 401 && security.token() != null) {
            throw new UserError("--pulsar-token-file: Pulsar at " + baseUrl + " refused the token (HTTP 401); check "
                    + "--pulsar-token-file");
        }
        if (status == 401) {
            throw new UserError(security.user() == null
                    ? "--user: Pulsar at " + baseUrl + " demands a login (HTTP 401); give --user and --password-file, "
                            + "or --pulsar-token-file"
                    : "--user: Pulsar at " + baseUrl + " refused the login of user '" + security.user() + "' (HTTP 401); "
                            + "check --user and --password-file");
        }
        throw new UserError("Pulsar's admin API refused " + method + " " + path + " at " + baseUrl + ": HTTP " + status
                + " " + response.body().strip());
    }

    /** An untrusted certificate names --ca, any other failed handshake says what TLS reported. */
    private static UserError untrusted(String broker, SSLHandshakeException e) {
        String reason = rootMessage(e);
        if (reason.contains("certification path") || reason.contains("PKIX")) {
            return new UserError("--ca: the TLS certificate of Pulsar's web service at " + broker + " is not trusted ("
                    + reason + "); give the authority that signed it with --ca FILE (PEM)", e);
        }
        return new UserError("--pulsar-admin-url: the TLS handshake with Pulsar's web service at " + broker
                + " failed (" + reason + ")", e);
    }

    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return String.valueOf(root.getMessage());
    }

    /** To the broker that answered last, then to the others in turn: a killed broker leaves the others. */
    private HttpResponse<String> send(HttpRequest.Builder request, String path) throws IOException, InterruptedException {
        int first = answering;
        for (int i = 0; i < brokers.size(); i++) {
            int broker = (first + i) % brokers.size();
            try {
                HttpResponse<String> response = web.http().send(
                        request.uri(URI.create(brokers.get(broker) + path)).build(), HttpResponse.BodyHandlers.ofString());
                answering = broker;
                answeredOnce = true;
                return response;
            } catch (java.net.ConnectException e) {
                // the next broker, if any
            } catch (SSLHandshakeException e) {
                throw untrusted(brokers.get(broker), e);
            }
        }
        if (answeredOnce) {
            // the broker went away during the run (a fault, a crash): the run's failure, not the flag's
            throw new IOException("Pulsar's web service at " + baseUrl + " no longer answers");
        }
        throw new UserError("--pulsar-admin-url: nothing answers at " + baseUrl + "; give the broker's web "
                + "service (http://HOST:8080), or omit --url to start a local Pulsar");
    }
}
