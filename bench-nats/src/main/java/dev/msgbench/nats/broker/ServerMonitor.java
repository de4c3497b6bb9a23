package dev.msgbench.nats.broker;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

/** nats-server's HTTP monitoring endpoint on one server: health, JetStream config, routes, clients. */
public final class ServerMonitor {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String base;
    private final HttpClient http;

    public ServerMonitor(int port) {
        this("127.0.0.1", port);
    }

    /** @param host 127.0.0.1, or the server's host under --isolate */
    public ServerMonitor(String host, int port) {
        this.base = "http://" + host + ":" + port;
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    /** /healthz answers 200: the server accepts clients, and JetStream (when enabled) is up. */
    public boolean healthy() throws IOException, InterruptedException {
        return get("/healthz").statusCode() == 200;
    }

    /** Routes this server has to others of its cluster (a pool of several per peer on 2.10+). */
    public int routes() throws IOException, InterruptedException {
        return json("/routez").path("num_routes").asInt(0);
    }

    /** This server has every route to each named peer: its whole pool and its pinned accounts' routes. */
    public boolean routedTo(Collection<String> peerNames) throws IOException, InterruptedException {
        return RouteTable.of(json("/varz"), json("/routez")).complete(peerNames);
    }

    /** The "config" object of /jsz: max_memory, store_dir and, from 2.10, sync_interval and sync_always. */
    public JsonNode jetStreamConfig() throws IOException, InterruptedException {
        return json("/jsz").path("config");
    }

    /**
     * Stream {@code name}'s entry in /jsz's account details, with its config (num_replicas, storage)
     * and its cluster (leader, replicas); a missing node when this server holds no replica of it.
     */
    public JsonNode streamDetail(String name) throws IOException, InterruptedException {
        for (JsonNode account : json("/jsz?accounts=true&streams=true&config=true").path("account_details")) {
            for (JsonNode stream : account.path("stream_detail")) {
                if (name.equals(stream.path("name").asText())) {
                    return stream;
                }
            }
        }
        return MissingNode.getInstance();
    }

    /** The names of the clients connected to this server (/connz), as they gave them, in the server's order. */
    public List<String> connectionNames() throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        for (JsonNode c : json("/connz?limit=100000").path("connections")) {
            names.add(c.path("name").asText(""));
        }
        return names;
    }

    private JsonNode json(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = get(path);
        if (response.statusCode() != 200) {
            throw new IOException(base + path + " answered HTTP " + response.statusCode());
        }
        return JSON.readTree(response.body());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT).GET().build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public String toString() {
        return base;
    }
}
