package dev.msgbench.pulsar.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.broker.JavaChild;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.broker.Readiness;

/**
 * A local Pulsar cluster for {@code --brokers 3}: one ZooKeeper (the metadata store, with the
 * cluster's metadata written by PulsarClusterMetadataSetup), three bookies and three brokers, each
 * in a JVM of its own on the Pulsar jars ({@link PulsarJvm#CLASS_PATH}), on free loopback ports,
 * with their data in a temp dir. Three brokers, not one: a topic whose broker dies moves to
 * another, as in a real cluster, instead of the whole service going down.
 *
 * <p>Nodes, as {@code node=N} and {@link #dataDir} number them: 1 to 3 are the brokers, 4 to 6
 * the bookies (bookie 1 is node 4). ZooKeeper is a helper, not a node: no fault aims at it.
 *
 * <p>Ready once every broker's health check says ok: each has then written a message through the
 * bookies (all three, with ensemble and write quorum 3) and read it back.
 *
 * <p>JVMs and memory: the brokers have the spec's heap (512m) and as much direct memory, the
 * bookies 256m and 256m, ZooKeeper 128m and 128m: at most 4.75 GiB in seven JVMs, and an eighth for the
 * few seconds of the metadata setup.
 */
public final class LocalPulsarCluster extends AbstractLocalPulsar {

    /**
     * Why --secure is refused: each broker, bookie and ZooKeeper would need TLS, and the brokers a
     * login among themselves; not yet.
     */
    public static final String SECURE_REFUSED = "a local Pulsar cluster (--brokers 3) starts open for now; secure a "
            + "standalone (--brokers 1), or measure a secured cluster with --url pulsar+ssl://HOST:6651";
    /**
     * Why --isolate is refused: the hosts are made for the three brokers, and the bookies and
     * ZooKeeper would need hosts and addresses of their own too; seven JVMs behind links.
     */
    public static final String ISOLATE_REFUSED = "a local Pulsar cluster (--brokers 3) runs on loopback only: its "
            + "three bookies and ZooKeeper would need hosts of their own beside the three brokers, seven JVMs behind "
            + "links; isolate a standalone (--brokers 1)";
    static final int BROKERS = 3;
    static final int BOOKIES = 3;
    private static final String BROKER_MAIN = "org.apache.pulsar.PulsarBrokerStarter";
    private static final String BOOKIE_MAIN = "org.apache.bookkeeper.server.Main";
    private static final String ZOOKEEPER_MAIN = "org.apache.zookeeper.server.ZooKeeperServerMain";
    private static final String SETUP_MAIN = "org.apache.pulsar.PulsarClusterMetadataSetup";
    private static final String BOOKIE_HEAP = "256m";
    private static final String ZOOKEEPER_HEAP = "128m";
    private static final String SETUP_HEAP = "256m";

    private final PulsarBrokerSpec spec;
    private final int zooKeeperPort;
    /** Index i is broker i+1's, bookie i+1's. */
    private final List<Integer> brokerPorts;
    private final List<Integer> webPorts;
    private final List<Integer> bookiePorts;
    private final Map<String, String> effectiveConf;

    private LocalPulsarCluster(PulsarBrokerSpec spec, List<Path> jars, Path tempDir) {
        super(BROKERS + BOOKIES, spec.broker(), jars, tempDir);
        if (spec.broker().nodes() != BROKERS) {
            throw new IllegalArgumentException("a local Pulsar cluster has " + BROKERS + " brokers, asked for "
                    + spec.broker().nodes());
        }
        this.spec = spec;
        List<Integer> ports = FreePorts.take(1 + BROKERS * 2 + BOOKIES);
        this.zooKeeperPort = ports.get(0);
        this.brokerPorts = ports.subList(1, 1 + BROKERS);
        this.webPorts = ports.subList(1 + BROKERS, 1 + 2 * BROKERS);
        this.bookiePorts = ports.subList(1 + 2 * BROKERS, ports.size());
        this.effectiveConf = ClusterConf.effective(spec.broker().props());
    }

    /**
     * Starts ZooKeeper, writes the cluster's metadata, starts the bookies and brokers, and returns
     * once every broker's health check says ok.
     *
     * @throws UserError when a JVM exits or the cluster is not ready within the spec's timeout;
     *                   whatever was started is stopped first
     */
    public static LocalPulsarCluster start(PulsarBrokerSpec spec) {
        return start(spec, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** Test seam: the temp dir is made in {@code tempParent}, so a test can see what is left. */
    static LocalPulsarCluster start(PulsarBrokerSpec spec, Path tempParent) {
        if (spec.broker().security() != null) {
            throw new UserError("--secure: " + SECURE_REFUSED);
        }
        if (spec.broker().placement().isolated()) {
            throw new UserError("--isolate: " + ISOLATE_REFUSED);
        }
        return timedStart(spec, tempParent, (jars, tempDir) -> new LocalPulsarCluster(spec, jars, tempDir));
    }

    /** {@code pulsar://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3}: a client tries the brokers in turn. */
    @Override
    public String url() {
        return "pulsar://" + brokerPorts.stream().map(port -> PulsarJvm.LOOPBACK + ":" + port)
                .collect(Collectors.joining(","));
    }

    /**
     * {@code http://127.0.0.1:W1,127.0.0.1:W2,127.0.0.1:W3}, Pulsar's multi-host form: any broker
     * answers for the whole cluster (and redirects a topic's calls to its owner), so the suite asks
     * the next where one is down.
     */
    @Override
    public String adminUrl() {
        return "http://" + webPorts.stream().map(port -> PulsarJvm.LOOPBACK + ":" + port)
                .collect(Collectors.joining(","));
    }

    @Override
    public Map<String, String> effectiveConf() {
        return effectiveConf;
    }

    @Override
    public String kind() {
        return "cluster";
    }

    @Override
    public OptionalInt nodeOfBroker(String brokerUrl) {
        URI uri = URI.create(brokerUrl);
        int index = brokerPorts.indexOf(uri.getPort());
        return PulsarJvm.LOOPBACK.equals(uri.getHost()) && index >= 0 ? OptionalInt.of(index + 1) : OptionalInt.empty();
    }

    /** Nodes 1 to 3, the brokers, hold only their conf; nodes 4 to 6, the bookies, their journal and ledgers. */
    @Override
    public Path dataDir(int node) {
        return tempDir().resolve("node-" + checkNode(node));
    }

    @Override
    public String toString() {
        return "pulsar cluster of " + BROKERS + " brokers and " + BOOKIES + " bookies at " + url() + " (admin API "
                + adminUrl() + ")";
    }

    @Override
    protected void bringUp(Readiness budget) {
        PulsarJvm.writeLog4jConfig(log4jConfig());
        Path zooKeeperDir = tempDir().resolve("zookeeper");
        createDirectories(zooKeeperDir);
        ClusterConf.writeZooKeeper(zooKeeperDir.resolve("zoo.cfg"), zooKeeperDir.resolve("data"), zooKeeperPort);
        for (int node = 1; node <= BROKERS + BOOKIES; node++) {
            createDirectories(dataDir(node));
            if (isBroker(node)) {
                ClusterConf.writeBroker(conf(node), zooKeeper(), brokerPorts.get(node - 1), webPorts.get(node - 1),
                        spec.broker().props());
            } else {
                ClusterConf.writeBookie(conf(node), zooKeeper(), bookiePorts.get(node - BROKERS - 1), dataDir(node),
                        spec.broker().props());
            }
        }
        ManagedProcess zk = startHelper(child("zookeeper", ZOOKEEPER_MAIN, ZOOKEEPER_HEAP, zooKeeperDir,
                List.of(zooKeeperDir.resolve("zoo.cfg").toString())).toCommand().withCpus(spec.broker().cpus()));
        budget.await("zookeeper", zk.logFile(), List.of(zk), () -> accepts(PulsarJvm.LOOPBACK, zooKeeperPort));
        writeClusterMetadata(budget);
        for (int node = 1; node <= BROKERS + BOOKIES; node++) {
            launch(node);
        }
        // the brokers' health checks write through the bookies: the bookies first
        for (int node = BROKERS + 1; node <= BROKERS + BOOKIES; node++) {
            awaitNodeReady(node, budget);
        }
        for (int node = 1; node <= BROKERS; node++) {
            awaitNodeReady(node, budget);
        }
    }

    /** The cluster, its brokers' URLs, the BookKeeper metadata and public/default, in ZooKeeper: once, before any node. */
    private void writeClusterMetadata(Readiness budget) {
        Path dir = tempDir().resolve("setup");
        createDirectories(dir);
        ManagedProcess setup = startHelper(child("pulsar cluster metadata setup", SETUP_MAIN, SETUP_HEAP, dir,
                List.of("--cluster", ClusterConf.CLUSTER, "--metadata-store", "zk:" + zooKeeper(),
                        "--configuration-metadata-store", "zk:" + zooKeeper(), "--web-service-url", webUrl(1),
                        "--broker-service-url", url())).toCommand().withCpus(spec.broker().cpus()));
        budget.await("pulsar cluster metadata setup", setup.logFile(), List.of(), () -> !setup.isAlive());
        if (setup.exitCode().orElse(-1) != 0) {
            throw new UserError("the pulsar cluster metadata setup " + setup.exitDescription() + "; see "
                    + setup.logFile());
        }
    }

    @Override
    protected void awaitNodeReady(int node, Readiness budget) {
        List<ManagedProcess> watched = List.of(startedNodes().get(node - 1));
        Path log = startedNodes().get(node - 1).logFile();
        if (isBroker(node)) {
            int web = webPorts.get(node - 1);
            budget.await(nodeName(node), log, watched, () -> accepts(PulsarJvm.LOOPBACK, web));
            budget.await(nodeName(node) + " health check", log, watched,
                    () -> PulsarJvm.healthy(PulsarWebAccess.OPEN, webUrl(node)));
        } else {
            int port = bookiePorts.get(node - BROKERS - 1);
            budget.await(nodeName(node), log, watched, () -> accepts(PulsarJvm.LOOPBACK, port));
        }
    }

    @Override
    protected ManagedProcess startNode(int node) {
        JavaChild child = isBroker(node)
                ? child(nodeName(node), BROKER_MAIN, spec.heap(), dataDir(node),
                        List.of("--broker-conf", conf(node).toString()))
                : child(nodeName(node), BOOKIE_MAIN, BOOKIE_HEAP, dataDir(node), List.of("-c", conf(node).toString()));
        return child.toCommand().withCpus(spec.broker().cpus()).start();
    }

    private JavaChild child(String name, String main, String heap, Path workDir, List<String> args) {
        Path log = logDir().resolve("pulsar-" + name.replace("pulsar ", "").replace(' ', '-') + ".log");
        return new JavaChild(name, main, PulsarJvm.options(heap, log4jConfig()), args, workDir, log, tempDir())
                .withClassPath(jars);
    }

    /** "pulsar broker 2", "pulsar bookie 1" (node 4): the log is pulsar-broker-2.log, pulsar-bookie-1.log. */
    private static String nodeName(int node) {
        return isBroker(node) ? "pulsar broker " + node : "pulsar bookie " + (node - BROKERS);
    }

    private static boolean isBroker(int node) {
        return node <= BROKERS;
    }

    private String webUrl(int broker) {
        return "http://" + PulsarJvm.LOOPBACK + ":" + webPorts.get(broker - 1);
    }

    private String zooKeeper() {
        return PulsarJvm.LOOPBACK + ":" + zooKeeperPort;
    }

    private Path conf(int node) {
        return dataDir(node).resolve(isBroker(node) ? "broker.conf" : "bookkeeper.conf");
    }

    private Path log4jConfig() {
        return tempDir().resolve("log4j2.xml");
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }
}
