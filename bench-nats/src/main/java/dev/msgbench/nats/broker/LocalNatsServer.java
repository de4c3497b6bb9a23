package dev.msgbench.nats.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.AbstractLocalBroker;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.broker.MqttProbe;
import dev.msgbench.core.broker.NativeCommand;
import dev.msgbench.core.broker.Readiness;
import dev.msgbench.core.security.LocalSecurity;

/**
 * nats-server on loopback, one process per node, each with a config file written for the run and
 * its JetStream store in a temp dir. Several nodes form a cluster: every node lists every route.
 * Closing it, an exit and Ctrl+C (through {@link CleanupRegistry}) stop the servers and remove
 * the temp dir.
 *
 * <p>With {@link NatsServerSpec#security} clients must speak TLS (the throwaway certificate in
 * the temp dir) and log in; the monitoring port, which answers the ready checks, stays plain HTTP
 * on loopback.
 *
 * <p>Ready when every node's /healthz answers 200 and, in a cluster, every node has a route to
 * each other one, so that a message published on one node reaches subscribers on another.
 */
public final class LocalNatsServer extends AbstractLocalBroker {

    /** nats-server stops in milliseconds; a node that needs longer is killed. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration ABORT_GRACE = Duration.ofSeconds(3);

    private final NatsServerSpec spec;
    private final NatsServerBinary binary;
    private final List<NatsNode> nodes;
    /** Made at start, in the temp dir, so that a failed start removes it with the rest. */
    private volatile LocalSecurity security;

    private LocalNatsServer(NatsServerSpec spec, NatsServerBinary binary, Path tempDir) {
        super(spec.broker(), tempDir, STOP_GRACE, ABORT_GRACE);
        spec.broker().placement().requireNodes(spec.broker().nodes());
        this.spec = spec;
        this.binary = binary;
        boolean cluster = spec.broker().nodes() > 1;
        int perNode = 2 + (cluster ? 1 : 0) + (spec.mqtt() ? 1 : 0);
        List<Integer> ports = FreePorts.take(perNode * spec.broker().nodes());
        List<NatsNode> list = new ArrayList<>();
        for (int id = 1; id <= spec.broker().nodes(); id++) {
            int first = perNode * (id - 1);
            list.add(new NatsNode(id, ports.get(first), ports.get(first + 1), cluster ? ports.get(first + 2) : 0,
                    tempDir.resolve("node-" + id), logDir().resolve("nats-" + id + ".log"),
                    spec.broker().placement().address(id), spec.mqtt() ? ports.get(first + perNode - 1) : 0));
        }
        this.nodes = List.copyOf(list);
    }

    /**
     * Starts the servers and returns once they serve clients.
     *
     * @throws UserError when nats-server is missing, exits, or is not ready within the spec's
     *                   timeout; whatever was started is stopped first
     */
    public static LocalNatsServer start(NatsServerSpec spec) {
        return start(spec, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** Test seam: the temp dir is made in {@code tempParent}, so a test can see what is left. */
    static LocalNatsServer start(NatsServerSpec spec, Path tempParent) {
        NatsServerBinary binary = spec.binary() != null ? spec.binary() : NatsServerBinary.find();
        if (spec.broker().props().containsKey(NatsServerSpec.SYNC_PROP)) {
            NatsServerSpec.requireSyncSupport(binary, "--broker-prop " + NatsServerSpec.SYNC_PROP);
        }
        return startBroker("nats", tempParent, spec.broker().startTimeout(),
                tempDir -> new LocalNatsServer(spec, binary, tempDir));
    }

    /**
     * Every node, comma-separated, as jnats takes them: {@code nats://127.0.0.1:P1,nats://127.0.0.1:P2},
     * or {@code tls://} for a secured server. With an MQTT listener ({@link NatsServerSpec#withMqtt})
     * MQTT's, {@code mqtt://127.0.0.1:P1}: what the servers were started for.
     */
    @Override
    public String url() {
        String scheme = spec.broker().security() == null ? "nats" : "tls";
        return nodes.stream().map(n -> spec.mqtt() ? n.mqttUrl(mqttScheme()) : n.url(scheme))
                .collect(Collectors.joining(","));
    }

    /**
     * {@code mqtt://127.0.0.1:PORT} of one node's MQTT listener ({@link NatsServerSpec#withMqtt}),
     * {@code mqtts://} on a secured server.
     *
     * @throws IllegalStateException when the servers run without one
     */
    public String mqttUrl(int node) {
        if (!spec.mqtt()) {
            throw new IllegalStateException(this + " runs without an MQTT listener");
        }
        return node(node).mqttUrl(mqttScheme());
    }

    private String mqttScheme() {
        return spec.broker().security() == null ? "mqtt" : "mqtts";
    }

    @Override
    public LocalSecurity localSecurity() {
        return security;
    }

    @Override
    public String version() {
        return binary.version();
    }

    public NatsServerBinary binary() {
        return binary;
    }

    public NatsServerSpec spec() {
        return spec;
    }

    /** The HTTP monitoring endpoint of one node, numbered from 1. */
    public ServerMonitor monitor(int node) {
        return node(node).monitor();
    }

    /**
     * The node number of a server of a local cluster from the name it reports (its
     * {@code server_name}, e.g. in a stream's cluster info); empty for any other name, such as
     * that of a server given with --url.
     */
    public static OptionalInt nodeOfServerName(String serverName) {
        if (serverName == null || !serverName.startsWith(NatsNode.SERVER_NAME_PREFIX)) {
            return OptionalInt.empty();
        }
        String number = serverName.substring(NatsNode.SERVER_NAME_PREFIX.length());
        return number.matches("[1-9][0-9]{0,3}") ? OptionalInt.of(Integer.parseInt(number)) : OptionalInt.empty();
    }

    /**
     * JetStream's config as node 1 reports it in /jsz (sync_interval and sync_always from 2.10
     * on), or an empty object when JetStream is off.
     */
    public JsonNode jetStreamConfig() throws IOException, InterruptedException {
        return monitor(1).jetStreamConfig();
    }

    @Override
    public String toString() {
        return "nats-server " + binary.version() + " (" + nodesText() + ") at " + url();
    }

    /** The node's JetStream store; present, and empty, on a server without JetStream. */
    @Override
    public Path dataDir(int node) {
        return node(node).storeDir();
    }

    private NatsNode node(int node) {
        return nodes.get(checkNode(node) - 1);
    }

    @Override
    protected void bringUp(Readiness budget) {
        if (spec.broker().security() != null) {
            security = LocalSecurity.create(tempDir().resolve("tls"), spec.broker().security(),
                    spec.broker().placement());
        }
        writeConfigs();
        launchAll();
        awaitReady(budget);
    }

    /** nats-server on the node's config file; it logs to stderr, which goes to the node's log file. */
    @Override
    protected ManagedProcess startNode(int id) {
        NatsNode node = node(id);
        return new NativeCommand(node.name(), List.of(binary.path().toString(), "-c", node.configFile().toString()),
                java.util.Map.of(), node.dir(), node.logFile(), tempDir()).withCpus(spec.broker().cpus())
                .withNetns(spec.broker().placement().namespace(id)).start();
    }

    private void writeConfigs() {
        try {
            for (NatsNode node : nodes) {
                Files.createDirectories(node.dir());
                Files.writeString(node.configFile(), NatsServerConfig.render(node, nodes, spec, security), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the nats-server configs in " + tempDir(), e);
        }
    }

    private void awaitReady(Readiness budget) {
        List<ManagedProcess> watched = startedNodes();
        for (NatsNode node : nodes) {
            awaitHealthy(node, budget, watched);
        }
        if (nodes.size() > 1) {
            for (NatsNode node : nodes) {
                awaitRoutes(node, nodes.stream().filter(n -> n != node).toList(), budget, watched);
            }
        }
    }

    /**
     * /healthz answers 200 and, in a cluster, the node has routes to every other node that runs:
     * a restarted node serves clients once messages published on it reach the others. Its
     * JetStream store ({@code node-N/store}) is where it was, so it comes back with its streams.
     */
    @Override
    protected void awaitNodeReady(int id, Readiness budget) {
        List<ManagedProcess> watched = List.of(startedNodes().get(id - 1));
        awaitHealthy(node(id), budget, watched);
        List<NatsNode> othersRunning = nodes.stream()
                .filter(n -> n.id() != id && exitDescription(n.id()) == null).toList();
        if (!othersRunning.isEmpty()) {
            awaitRoutes(node(id), othersRunning, budget, watched);
        }
    }

    /**
     * /healthz answers 200 and, with MQTT, the node accepts an MQTT session: the first one makes the
     * account's MQTT streams in JetStream, which the probe pays for instead of a run's first client.
     */
    private void awaitHealthy(NatsNode node, Readiness budget, List<ManagedProcess> watched) {
        budget.await(node.name(), node.logFile(), watched, node.monitor()::healthy);
        if (spec.mqtt()) {
            budget.await(node.name() + "'s MQTT listener", node.logFile(), watched,
                    () -> MqttProbe.accepts(node.host(), node.mqttPort(), clientSecurity()));
        }
    }

    /** Every route of the pool to each peer, not just one: see {@link RouteTable}. */
    private static void awaitRoutes(NatsNode node, List<NatsNode> peers, Readiness budget,
            List<ManagedProcess> watched) {
        ServerMonitor monitor = node.monitor();
        List<String> names = peers.stream().map(NatsNode::serverName).toList();
        budget.await(node.name() + " routes to " + names, node.logFile(), watched,
                () -> monitor.routedTo(names));
    }

}
