package dev.msgbench.core.net;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

import dev.msgbench.core.UserError;

/**
 * Where everything of an isolated run lives: the switch, the client host and each broker node's
 * host, and the links' shaping. The runner that made the {@link Topology} writes it to a file and
 * names the file in {@link #ENV} for the run it starts inside the client host, whose launchers put
 * each node in its host.
 *
 * @param switchNamespace the namespace holding the bridge and the switch ends of the links
 * @param subnet          e.g. 10.77.12.0/24
 */
public record IsolatedHosts(String switchNamespace, String subnet, NetHost client, List<NetHost> nodes,
                            LinkShaping shaping) {

    /** Names the file a child run reads; set only in a run started inside the client host. */
    public static final String ENV = "MSGBENCH_TOPOLOGY";

    public IsolatedHosts {
        Objects.requireNonNull(switchNamespace, "switchNamespace");
        Objects.requireNonNull(client, "client");
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(shaping, "shaping");
    }

    /** Broker node {@code node}'s host, from 1. */
    public NetHost node(int node) {
        if (node < 1 || node > nodes.size()) {
            throw new UserError("--isolate made hosts for " + nodes.size() + " broker node"
                    + (nodes.size() == 1 ? "" : "s") + ", not for node " + node);
        }
        return nodes.get(node - 1);
    }

    /** The hosts of this run, when it runs inside an isolated client host; empty otherwise. */
    public static Optional<IsolatedHosts> fromEnvironment() {
        String file = System.getenv(ENV);
        return file == null || file.isEmpty() ? Optional.empty() : Optional.of(read(Path.of(file)));
    }

    /** As result.json records it (settings.broker.isolation). */
    public Map<String, Object> settings() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("subnet", subnet);
        s.put("client", client.address());
        s.put("nodes", nodes.stream().map(NetHost::address).toList());
        s.put("linkShaping", shaping.settings());
        s.put("netem", shaping.needsNetem());
        s.put("summary", describe());
        return s;
    }

    /** For the summary: "client 10.77.12.100, nodes 10.77.12.1; links: rate 1gbit (tbf ...)". */
    public String describe() {
        return "separate hosts (--isolate): client " + client.address() + ", broker node"
                + (nodes.size() == 1 ? " " : "s ") + String.join(", ", nodes.stream().map(NetHost::address).toList())
                + " on " + subnet + "; each link: " + shaping.describe();
    }

    public void write(Path file) {
        Properties p = new Properties();
        p.setProperty("switch", switchNamespace);
        p.setProperty("subnet", subnet);
        put(p, "client", client);
        p.setProperty("nodes", Integer.toString(nodes.size()));
        for (int i = 0; i < nodes.size(); i++) {
            put(p, "node." + (i + 1), nodes.get(i));
        }
        p.setProperty("delayNanos", Long.toString(shaping.delayNanos()));
        p.setProperty("jitterNanos", Long.toString(shaping.jitterNanos()));
        p.setProperty("lossPercent", Double.toString(shaping.lossPercent()));
        p.setProperty("rateBitsPerSec", Long.toString(shaping.rateBitsPerSec()));
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(out, "msgbench: the hosts of one isolated run");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public static IsolatedHosts read(Path file) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
            List<NetHost> nodes = new ArrayList<>();
            int count = Integer.parseInt(p.getProperty("nodes"));
            for (int i = 1; i <= count; i++) {
                nodes.add(host(p, "node." + i));
            }
            LinkShaping shaping = new LinkShaping(Long.parseLong(p.getProperty("delayNanos")),
                    Long.parseLong(p.getProperty("jitterNanos")), Double.parseDouble(p.getProperty("lossPercent")),
                    Long.parseLong(p.getProperty("rateBitsPerSec")));
            return new IsolatedHosts(p.getProperty("switch"), p.getProperty("subnet"), host(p, "client"), nodes,
                    shaping);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " (named by " + ENV + ")", e);
        } catch (RuntimeException e) {
            throw new IllegalStateException("malformed " + file + " (named by " + ENV + "): " + e.getMessage(), e);
        }
    }

    private static void put(Properties p, String key, NetHost host) {
        p.setProperty(key + ".role", host.role());
        p.setProperty(key + ".namespace", host.namespace());
        p.setProperty(key + ".address", host.address());
        p.setProperty(key + ".switchPort", host.switchPort());
    }

    private static NetHost host(Properties p, String key) {
        return new NetHost(p.getProperty(key + ".role"), p.getProperty(key + ".namespace"),
                p.getProperty(key + ".address"), p.getProperty(key + ".switchPort"));
    }
}
