package dev.msgbench.nats.broker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class RouteTableTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> PEERS = List.of("msgbench-nats-2", "msgbench-nats-3");

    @Test
    void twoRoutesOfEightAreNotTwoPeersRouted() throws Exception {
        RouteTable table = RouteTable.of(varz(3), routez(
                "msgbench-nats-2", "", "msgbench-nats-3", ""));
        assertFalse(table.complete(PEERS), "2.10+ pools 3 routes per peer; one each is not ready");
    }

    @Test
    void theWholePoolAndThePinnedSystemRouteToEachPeerIsReady() throws Exception {
        RouteTable table = RouteTable.of(varz(3), routez(
                "msgbench-nats-2", "", "msgbench-nats-2", "", "msgbench-nats-2", "", "msgbench-nats-2", "$SYS",
                "msgbench-nats-3", "", "msgbench-nats-3", "", "msgbench-nats-3", "", "msgbench-nats-3", "$SYS"));
        assertTrue(table.complete(PEERS));
    }

    @Test
    void anAccountPinnedOnOnePeerButNotYetOnTheOtherIsNotReady() throws Exception {
        RouteTable table = RouteTable.of(varz(3), routez(
                "msgbench-nats-2", "", "msgbench-nats-2", "", "msgbench-nats-2", "", "msgbench-nats-2", "$SYS",
                "msgbench-nats-3", "", "msgbench-nats-3", "", "msgbench-nats-3", ""));
        assertFalse(table.complete(PEERS));
    }

    @Test
    void beforeThePoolOneRoutePerPeerIsReady() throws Exception {
        RouteTable table = RouteTable.of(JSON.readTree("{\"cluster\":{\"name\":\"msgbench\"}}"),
                routez("msgbench-nats-2", "", "msgbench-nats-3", ""));
        assertTrue(table.complete(PEERS));
        assertFalse(table.complete(List.of("msgbench-nats-2", "msgbench-nats-4")), "a peer with no route");
    }

    private static JsonNode varz(int poolSize) throws Exception {
        return JSON.readTree("{\"cluster\":{\"name\":\"msgbench\",\"pool_size\":" + poolSize + "}}");
    }

    /** Pairs of remote_name and account ("" for a pooled route). */
    private static JsonNode routez(String... peerAndAccount) throws Exception {
        StringBuilder routes = new StringBuilder();
        for (int i = 0; i < peerAndAccount.length; i += 2) {
            routes.append(i == 0 ? "" : ",").append("{\"remote_name\":\"").append(peerAndAccount[i]).append('"')
                    .append(peerAndAccount[i + 1].isEmpty() ? "" : ",\"account\":\"" + peerAndAccount[i + 1] + "\"")
                    .append('}');
        }
        return JSON.readTree("{\"routes\":[" + routes + "]}");
    }
}
