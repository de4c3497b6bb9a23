package dev.msgbench.nats.broker;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The routes one server has to its peers, read from /varz and /routez, and whether they are all up.
 *
 * <p>From 2.10 a server keeps a pool of {@code pool_size} routes to each peer (3 by default) and
 * one more route per pinned account ({@code $SYS} by default); an account's messages and interest
 * ride on one of them, chosen by hash. Counting routes against peers is not enough: two of eight
 * routes up satisfies "two peers" while the route that carries the clients' account may still be
 * connecting, and a publish on that server then finds no responders (seen in CI on a restarted
 * JetStream node). Before 2.10 there is no pool and one route per peer.
 */
record RouteTable(int poolSize, Map<String, Integer> pooled, Map<String, Set<String>> pinned) {

    static RouteTable of(JsonNode varz, JsonNode routez) {
        int poolSize = Math.max(1, varz.path("cluster").path("pool_size").asInt(1));
        Map<String, Integer> pooled = new HashMap<>();
        Map<String, Set<String>> pinned = new HashMap<>();
        for (JsonNode route : routez.path("routes")) {
            String peer = route.path("remote_name").asText("");
            String account = route.path("account").asText("");
            if (account.isEmpty()) {
                pooled.merge(peer, 1, Integer::sum);
            } else {
                pinned.computeIfAbsent(peer, p -> new HashSet<>()).add(account);
            }
        }
        return new RouteTable(poolSize, pooled, pinned);
    }

    /** Every peer has its whole pool and every account pinned to a route on any peer is pinned on each. */
    boolean complete(Collection<String> peers) {
        Set<String> pinnedAnywhere = new HashSet<>();
        pinned.values().forEach(pinnedAnywhere::addAll);
        for (String peer : peers) {
            if (pooled.getOrDefault(peer, 0) < poolSize
                    || !pinned.getOrDefault(peer, Set.of()).containsAll(pinnedAnywhere)) {
                return false;
            }
        }
        return true;
    }
}
