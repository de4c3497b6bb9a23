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

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.SettingNames;
import dev.msgbench.core.UserError;

/**
 * Where everything of an isolated run lives: the switch, the client host (or several, one per
 * separate load generator) and each broker node's host, and the links' shaping. The runner that
 * made the {@link Topology} writes it to a file and names the file in {@link #ENV} for the run it
 * starts inside the (first) client host, whose launchers put each node in its host.
 *
 * @param switchNamespace the namespace holding the bridge and the switch ends of the links
 * @param subnet          e.g. 10.77.12.0/24
 * @param clients         the client hosts: one (c) for a run, or c1..cN for separate workers
 */
public record IsolatedHosts(String switchNamespace, String subnet, List<NetHost> clients, List<NetHost> nodes,
                            LinkShaping shaping) {

    /** Names the file a child run reads; set only in a run started inside the client host. */
    public static final String ENV = "MSGBENCH_TOPOLOGY";

    public IsolatedHosts {
        Objects.requireNonNull(switchNamespace, "switchNamespace");
        clients = List.copyOf(clients);
        if (clients.isEmpty()) {
            throw new IllegalArgumentException("an isolated run has at least one client host");
        }
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(shaping, "shaping");
    }

    public IsolatedHosts(String switchNamespace, String subnet, NetHost client, List<NetHost> nodes,
                         LinkShaping shaping) {
        this(switchNamespace, subnet, List.of(client), nodes, shaping);
    }

    /** The client host a run's own load generator (and the runner inside an isolated run) uses: the first. */
    public NetHost client() {
        return clients.get(0);
    }

    /** Broker node {@code node}'s host, from 1. */
    public NetHost node(int node) {
        if (node < 1 || node > nodes.size()) {
            throw new UserError(Phrase.of("%s made hosts for %d broker node%s, not for node %d", Setting.ISOLATE,
                    nodes.size(), nodes.size() == 1 ? "" : "s", node));
        }
        return nodes.get(node - 1);
    }

    /**
     * The hosts of this run, when it runs inside an isolated client host; empty otherwise. Read
     * by the commands where they start, which pass a {@link Placement} down from it.
     */
    public static Optional<IsolatedHosts> fromEnvironment() {
        String file = System.getenv(ENV);
        return file == null || file.isEmpty() ? Optional.empty() : Optional.of(read(Path.of(file)));
    }

    /** As result.json records it (settings.broker.isolation), settings named by {@code names}. */
    public Map<String, Object> settings(SettingNames names) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("subnet", subnet);
        s.put("client", client().address());
        if (clients.size() > 1) {
            s.put("clients", clients.stream().map(NetHost::address).toList());
        }
        s.put("nodes", nodes.stream().map(NetHost::address).toList());
        s.put("linkShaping", shaping.settings());
        s.put("netem", shaping.needsNetem());
        s.put("summary", describe(names));
        return s;
    }

    /** For the summary: "client 10.77.12.100, nodes 10.77.12.1; links: rate 1gbit (tbf ...)". */
    public String describe(SettingNames names) {
        return "separate hosts (" + names.nameOf(Setting.ISOLATE) + "): client" + (clients.size() == 1 ? " " : "s ")
                + String.join(", ", clients.stream().map(NetHost::address).toList()) + ", broker node"
                + (nodes.size() == 1 ? " " : "s ") + String.join(", ", nodes.stream().map(NetHost::address).toList())
                + " on " + subnet + "; each link: " + shaping.describe();
    }

    public void write(Path file) {
        Properties p = new Properties();
        p.setProperty("switch", switchNamespace);
        p.setProperty("subnet", subnet);
        p.setProperty("clients", Integer.toString(clients.size()));
        for (int i = 0; i < clients.size(); i++) {
            put(p, "client." + (i + 1), clients.get(i));
        }
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
            List<NetHost> clients = hosts(p, "client");
            List<NetHost> nodes = hosts(p, "node");
            LinkShaping shaping = new LinkShaping(Long.parseLong(p.getProperty("delayNanos")),
                    Long.parseLong(p.getProperty("jitterNanos")), Double.parseDouble(p.getProperty("lossPercent")),
                    Long.parseLong(p.getProperty("rateBitsPerSec")));
            return new IsolatedHosts(p.getProperty("switch"), p.getProperty("subnet"), clients, nodes, shaping);
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

    /** {@code kind.1} to {@code kind.N}, N in {@code kinds}. */
    private static List<NetHost> hosts(Properties p, String kind) {
        List<NetHost> hosts = new ArrayList<>();
        int count = Integer.parseInt(p.getProperty(kind + "s"));
        for (int i = 1; i <= count; i++) {
            hosts.add(host(p, kind + "." + i));
        }
        return hosts;
    }

    private static NetHost host(Properties p, String key) {
        return new NetHost(p.getProperty(key + ".role"), p.getProperty(key + ".namespace"),
                p.getProperty(key + ".address"), p.getProperty(key + ".switchPort"));
    }
}
