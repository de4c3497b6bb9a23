package dev.msgbench.kafka.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The server.properties of a node in KRaft combined mode. Kafka's defaults everywhere else, so a
 * result describes Kafka as shipped; the user's --broker-prop values come last.
 */
final class ServerProperties {

    /** Differ per node and per run; left out of what results record. */
    static final Set<String> PER_RUN = Set.of("node.id", "listeners", "advertised.listeners", "log.dirs",
            "controller.quorum.voters", "controller.quorum.bootstrap.servers");

    private ServerProperties() {
    }

    static Map<String, String> of(KafkaNode node, List<KafkaNode> cluster, Map<String, String> overrides) {
        return of(node, cluster, overrides, null);
    }

    /** @param secured the client listener's TLS and login, or null for an open cluster */
    static Map<String, String> of(KafkaNode node, List<KafkaNode> cluster, Map<String, String> overrides,
                                  SecuredListener secured) {
        int n = cluster.size();
        String replicas = Integer.toString(n);
        String minIsr = Integer.toString(Math.min(2, n));
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(node.id()));
        if (secured == null) {
            p.put("listeners", "PLAINTEXT://" + node.bootstrap() + ",CONTROLLER://" + node.controller());
            p.put("inter.broker.listener.name", "PLAINTEXT");
            p.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT");
        } else {
            p.put("listeners", secured.listenerName() + "://" + node.bootstrap() + "," + SecuredListener.INTERNAL
                    + "://" + node.internal() + ",CONTROLLER://" + node.controller());
            p.put("inter.broker.listener.name", SecuredListener.INTERNAL);
            p.put("listener.security.protocol.map", "CONTROLLER:PLAINTEXT," + SecuredListener.INTERNAL
                    + ":PLAINTEXT," + secured.listenerName() + ":SASL_SSL");
            p.putAll(secured.serverProps());
        }
        p.put("advertised.listeners", p.get("listeners"));
        p.put("controller.listener.names", "CONTROLLER");
        if (n == 1) {
            // a dynamic quorum, formatted with --standalone
            p.put("controller.quorum.bootstrap.servers", node.controller());
        } else {
            // a static quorum: no directory ids to agree on, every node formats on its own
            p.put("controller.quorum.voters", cluster.stream()
                    .map(k -> k.id() + "@" + k.controller()).collect(Collectors.joining(",")));
        }
        p.put("log.dirs", node.dataDir().toString());
        // internal topics fit the cluster size, or they cannot be created
        p.put("offsets.topic.replication.factor", replicas);
        p.put("transaction.state.log.replication.factor", replicas);
        p.put("transaction.state.log.min.isr", minIsr);
        p.put("share.coordinator.state.topic.replication.factor", replicas);
        p.put("share.coordinator.state.topic.min.isr", minIsr);
        p.put("default.replication.factor", replicas);
        p.put("min.insync.replicas", minIsr);
        // the default 3 s delay only slows down the first consumer group of a run
        p.put("group.initial.rebalance.delay.ms", "0");
        p.putAll(overrides);
        return p;
    }

    static void write(Map<String, String> props, Path file) {
        StringBuilder text = new StringBuilder("# written by msgbench\n");
        props.forEach((k, v) -> text.append(escape(k, true)).append('=').append(escape(v, false)).append('\n'));
        try {
            Files.writeString(file, text, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** The .properties escapes for what can appear in keys, paths and user values. */
    private static String escape(String s, boolean key) {
        StringBuilder out = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c == '\\' || (key && (c == '=' || c == ':' || c == ' ' || c == '#' || c == '!'))) {
                out.append('\\');
            }
            if (c > 0x7e) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
