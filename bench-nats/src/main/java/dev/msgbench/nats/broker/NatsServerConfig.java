package dev.msgbench.nats.broker;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.msgbench.core.security.LocalSecurity;
import dev.msgbench.core.security.Pki;

/**
 * Writes one server's config file: ports, name, store and routes chosen by msgbench, then the
 * user's --broker-prop entries; where the user sets a key we would set (max_payload), ours is left out.
 */
final class NatsServerConfig {

    static final String CLUSTER_NAME = "msgbench";

    private NatsServerConfig() {
    }

    static String render(NatsNode node, List<NatsNode> all, NatsServerSpec spec) {
        return render(node, all, spec, null);
    }

    /**
     * @param security the certificates and login of a secured server (the password is written
     *                 here, in a file of the owner-only temp dir, and nowhere else); null: open
     */
    static String render(NatsNode node, List<NatsNode> all, NatsServerSpec spec, LocalSecurity security) {
        StringBuilder out = new StringBuilder();
        out.append("# written by msgbench for one run; removed when the server stops\n");
        out.append("server_name: ").append(node.serverName()).append('\n');
        out.append("listen: \"").append(node.host()).append(':').append(node.clientPort()).append("\"\n");
        out.append("http: \"").append(node.host()).append(':').append(node.monitorPort()).append("\"\n");
        if (!spec.broker().props().containsKey("max_payload")) {
            // a size limit, not a performance setting: so that the 1 MB experiments run
            out.append("max_payload: ").append(spec.maxPayloadBytes()).append('\n');
        }
        if (security != null) {
            secure(security, out);
        }
        if (all.size() > 1) {
            // routes stay plaintext and without a login: they run between servers of
            // this run only, and --secure is about what clients must bring
            out.append("cluster {\n");
            out.append("  name: ").append(CLUSTER_NAME).append('\n');
            out.append("  listen: \"").append(node.host()).append(':').append(node.clusterPort()).append("\"\n");
            out.append("  routes: [")
                    .append(all.stream().map(n -> "\"nats-route://" + n.host() + ":" + n.clusterPort() + "\"")
                            .collect(Collectors.joining(", ")))
                    .append("]\n");
            out.append("}\n");
        }
        Map<String, Object> tree = tree(spec.broker().props());
        if (spec.jetStream()) {
            out.append("jetstream {\n");
            out.append("  store_dir: \"").append(escape(node.storeDir().toString())).append("\"\n");
            Object js = tree.remove("jetstream");
            if (js instanceof Map) {
                render(castMap(js), "  ", out);
            }
            out.append("}\n");
        }
        if (spec.mqtt()) {
            // the listener only: sessions and messages go to JetStream's store above
            out.append("mqtt {\n");
            out.append("  listen: \"").append(node.host()).append(':').append(node.mqttPort()).append("\"\n");
            if (security != null) {
                // the top-level tls block covers client connections only; the login is the server's authorization
                tls(security, "  ", out);
            }
            Object mqtt = tree.remove("mqtt");
            if (mqtt instanceof Map) {
                render(castMap(mqtt), "  ", out);
            }
            out.append("}\n");
        }
        render(tree, "", out);
        return out.toString();
    }

    private static void secure(LocalSecurity security, StringBuilder out) {
        tls(security, "", out);
        out.append("authorization {\n");
        out.append("  user: \"").append(escape(security.login().user())).append("\"\n");
        out.append("  password: \"").append(escape(security.login().password().reveal())).append("\"\n");
        out.append("}\n");
    }

    /** A tls block with the throwaway certificate, at {@code indent}: the server's own, or its MQTT listener's. */
    private static void tls(LocalSecurity security, String indent, StringBuilder out) {
        Pki pki = security.pki();
        out.append(indent).append("tls {\n");
        out.append(indent).append("  cert_file: \"").append(escape(pki.serverCertFile().toString())).append("\"\n");
        out.append(indent).append("  key_file: \"").append(escape(pki.serverKeyFile().toString())).append("\"\n");
        out.append(indent).append("  ca_file: \"").append(escape(pki.caFile().toString())).append("\"\n");
        if (security.login().mutualTls()) {
            out.append(indent).append("  verify: true\n");
        }
        out.append(indent).append("}\n");
    }

    /** "a.b=v" becomes {a: {b: v}}, in the order given. */
    static Map<String, Object> tree(Map<String, String> props) {
        Map<String, Object> root = new TreeMap<>();
        for (Map.Entry<String, String> prop : props.entrySet()) {
            String[] parts = prop.getKey().split("\\.");
            Map<String, Object> level = root;
            for (int i = 0; i < parts.length - 1; i++) {
                Object next = level.get(parts[i]);
                if (!(next instanceof Map)) {
                    next = new TreeMap<String, Object>();
                    level.put(parts[i], next);
                }
                level = castMap(next);
            }
            level.put(parts[parts.length - 1], prop.getValue());
        }
        return root;
    }

    private static void render(Map<String, Object> map, String indent, StringBuilder out) {
        for (Map.Entry<String, Object> e : map.entrySet()) {
            if (e.getValue() instanceof Map) {
                out.append(indent).append(e.getKey()).append(" {\n");
                render(castMap(e.getValue()), indent + "  ", out);
                out.append(indent).append("}\n");
            } else {
                out.append(indent).append(e.getKey()).append(": ").append(e.getValue()).append('\n');
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object o) {
        return (Map<String, Object>) o;
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
