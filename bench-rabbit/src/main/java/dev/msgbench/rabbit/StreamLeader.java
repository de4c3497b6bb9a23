package dev.msgbench.rabbit;

import com.rabbitmq.stream.impl.Client;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import java.net.URI;
import java.time.Duration;
import java.util.OptionalInt;

/**
 * The node leading a stream of the suite's local broker, from the stream protocol's metadata
 * request, which any node answers with the leader's host and stream port, asked with the run's
 * own TLS and login (guest over loopback on an open node). It takes milliseconds,
 * where rabbitmqctl starts an Erlang VM of its own first: 5 to 10 s on two busy cores (measured
 * 2026-11-29), all of it between the time a fault aimed at the leader was due and the kill.
 */
final class StreamLeader {

    /** A paused node accepts the connection and answers nothing: ask the next one soon. */
    private static final Duration RPC_TIMEOUT = Duration.ofSeconds(2);

    private StreamLeader() {
    }

    /**
     * Asks node 1, then the next while a node does not answer (killed, paused, starting).
     *
     * @param security the run's TLS and login: a secured node has no plain stream port, nor guest
     * @return empty when no node answers, the stream has no leader now, or the leader's port is no
     *         node's (guest may not log in where the nodes run on hosts of their own); the
     *         caller then asks rabbitmqctl
     */
    static OptionalInt of(LocalRabbitMq broker, String stream, StreamClientSecurity security) {
        for (int asked = 1; asked <= broker.nodeCount(); asked++) {
            URI node = URI.create(broker.streamUrl(asked));
            Client client;
            try {
                client = new Client(security.apply(new Client.ClientParameters().host(node.getHost())
                        .port(node.getPort()).rpcTimeout(RPC_TIMEOUT)
                        .compressionCodecFactory(RabbitStreamsSystem::noCompression)));
            } catch (RuntimeException e) {
                // this node does not answer: the next may
                continue;
            }
            try {
                Client.StreamMetadata metadata = client.metadata(stream).get(stream);
                if (metadata == null || !metadata.isResponseOk() || metadata.getLeader() == null) {
                    return OptionalInt.empty();
                }
                return nodeWithPort(broker, metadata.getLeader().getPort());
            } catch (RuntimeException e) {
                continue;
            } finally {
                client.close();
            }
        }
        return OptionalInt.empty();
    }

    private static OptionalInt nodeWithPort(LocalRabbitMq broker, int port) {
        for (int node = 1; node <= broker.nodeCount(); node++) {
            if (broker.streamPort(node) == port) {
                return OptionalInt.of(node);
            }
        }
        return OptionalInt.empty();
    }
}
