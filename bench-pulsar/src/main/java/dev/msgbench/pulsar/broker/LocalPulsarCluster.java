package dev.msgbench.pulsar.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.broker.JavaChild;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.broker.NativeCommand;
import dev.msgbench.core.broker.Readiness;

/**
 * A local Pulsar cluster for {@code --brokers 3}: one ZooKeeper (the metadata store, with the
 * cluster's metadata written by PulsarClusterMetadataSetup), three bookies and three brokers, each
 * in a JVM of its own on the Pulsar jars ({@link PulsarJvm#CLASS_PATH}), on free ports, with their
 * data in a temp dir. Three brokers, not one: a topic whose broker dies moves to another, as in a
 * real cluster, instead of the whole service going down.
 *
 * <p>Where they run: all on loopback, or under --isolate ({@link dev.msgbench.core.broker.BrokerSpec#placement})
 * laid out as a real deployment is: host K (1 to 3) runs broker K and bookie K side by side, in
 * its network namespace, and host 1 also ZooKeeper and the metadata setup. Every JVM binds and
 * advertises its host's address (the brokers' binary port and web service, the bookie's port,
 * ZooKeeper's client port), the metadata URLs name host 1's, and the suite reaches them all, its
 * readiness checks among them, over the links ({@link #hostOf}: a partition of node=bookie-2 cuts
 * host 2, broker 2 with it).
 *
 * <p>Nodes, as {@link #dataDir} and the fault target number them: 1 to 3 are the brokers, 4 to 6
 * the bookies (bookie 1 is node 4, {@link #nodeOfBookie}); {@code --fault}'s node=N, leader and
 * any-follower name brokers, node=bookie-K a bookie, and node=all of a fault of the disk every bookie
 * ({@link #diskNodes}). ZooKeeper is a helper, not a node: no fault
 * aims at it. On forgetful disks (a fault of the disk) only the bookies' dirs, their journal and
 * ledgers, are mounted: a broker keeps nothing of a message.
 *
 * <p>Ready once every broker's health check says ok: each has then written a message through the
 * bookies (all three, with ensemble and write quorum 3) and read it back.
 *
 * <p>With a {@link dev.msgbench.core.broker.BrokerSpec#security} (--secure) each broker listens with
 * TLS only, on its binary port and its web service, and demands a login, as a secured standalone
 * does ({@link SecuredBrokerConf}, with the files of {@link SecuredPulsar}, made once for the three).
 * The brokers call one another over TLS and log in with the client certificate. What stays plain,
 * on loopback: the brokers' traffic with the bookies (BookKeeper's protocol, the messages
 * themselves), and the brokers' and bookies' with ZooKeeper (the metadata), over the hosts' links
 * under --isolate too (the certificate names the three hosts' addresses); a production cluster
 * would secure those as well.
 *
 * <p>JVMs and memory: the brokers have the spec's heap (512m) and as much direct memory, the
 * bookies 256m and 256m, ZooKeeper 128m and 128m: at most 4.75 GiB in seven JVMs, and an eighth for the
 * few seconds of the metadata setup. Under --isolate that is two JVMs per host, 1.5 GiB (broker
 * and bookie), and on host 1 four: ZooKeeper's 256 MiB more, and the setup's while it runs.
 */
public final class LocalPulsarCluster extends AbstractLocalPulsar {

    /** What --secure leaves plain, for the result and the docs. */
    public static final String PLAIN_INSIDE = "TLS and a login on the brokers' client and admin ports; plain on "
            + "loopback between brokers and bookies and with ZooKeeper";
    /** The same under --isolate, where that traffic crosses the hosts' links. */
    public static final String PLAIN_BETWEEN_HOSTS = "TLS and a login on the brokers' client and admin ports; plain "
            + "over the hosts' links between brokers and bookies and with ZooKeeper";
    public static final int BROKERS = 3;
    public static final int BOOKIES = 3;
    private static final String BROKER_MAIN = "org.apache.pulsar.PulsarBrokerStarter";
    private static final String BOOKIE_MAIN = "org.apache.bookkeeper.server.Main";
    private static final String ZOOKEEPER_MAIN = "org.apache.zookeeper.server.ZooKeeperServerMain";
    private static final String SETUP_MAIN = "org.apache.pulsar.PulsarClusterMetadataSetup";
    private static final String BOOKIE_HEAP = "256m";
    private static final String ZOOKEEPER_HEAP = "128m";
    private static final String SETUP_HEAP = "256m";

    private final int zooKeeperPort;
    /** Index i is host i+1's, which broker i+1 and bookie i+1 bind and advertise; host 1's is ZooKeeper's too. */
    private final List<String> addresses;
    /** Index i is broker i+1's, bookie i+1's. */
    private final List<Integer> brokerPorts;
    private final List<Integer> webPorts;
    private final List<Integer> bookiePorts;
    private final Map<String, String> effectiveConf;

    /** Started by {@link #start}; a test makes one to see its confs ({@link #writeConfs}), and starts nothing. */
    LocalPulsarCluster(PulsarBrokerSpec spec, List<Path> jars, Path tempDir) {
        super(BROKERS + BOOKIES, spec, jars, tempDir);
        if (spec.broker().nodes() != BROKERS) {
            throw new IllegalArgumentException("a local Pulsar cluster has " + BROKERS + " brokers, asked for "
                    + spec.broker().nodes());
        }
        spec.broker().placement().requireNodes(BROKERS);
        this.addresses = IntStream.rangeClosed(1, BROKERS).mapToObj(spec.broker().placement()::address).toList();
        List<Integer> ports = FreePorts.take(1 + BROKERS * 2 + BOOKIES);
        this.zooKeeperPort = ports.get(0);
        this.brokerPorts = ports.subList(1, 1 + BROKERS);
        this.webPorts = ports.subList(1 + BROKERS, 1 + 2 * BROKERS);
        this.bookiePorts = ports.subList(1 + 2 * BROKERS, ports.size());
        this.effectiveConf = ClusterConf.effective(recordedSecurity(), spec.broker().props());
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
        return timedStart(spec, tempParent, (jars, tempDir) -> new LocalPulsarCluster(spec, jars, tempDir));
    }

    /**
     * {@code pulsar://A1:P1,A2:P2,A3:P3}, each broker's host address (127.0.0.1 without --isolate)
     * and port: a client tries the brokers in turn; {@code pulsar+ssl://} when secured.
     */
    @Override
    public String url() {
        return serviceScheme() + "://" + hostPorts(brokerPorts);
    }

    /**
     * {@code http://A1:W1,A2:W2,A3:W3}, Pulsar's multi-host form: any broker answers for the whole
     * cluster (and redirects a topic's calls to its owner), so the suite asks the next where one is
     * down; {@code https://} when secured.
     */
    @Override
    public String adminUrl() {
        return webScheme() + "://" + hostPorts(webPorts);
    }

    /** ADDRESS:PORT of each broker's host, comma-separated. */
    private String hostPorts(List<Integer> ports) {
        return IntStream.range(0, BROKERS).mapToObj(i -> addresses.get(i) + ":" + ports.get(i))
                .collect(Collectors.joining(","));
    }

    @Override
    public Map<String, String> effectiveConf() {
        return effectiveConf;
    }

    @Override
    public String encryption() {
        if (!secured()) {
            return "none";
        }
        return spec.broker().placement().isolated() ? PLAIN_BETWEEN_HOSTS : PLAIN_INSIDE;
    }

    @Override
    public String kind() {
        return "cluster";
    }

    @Override
    public OptionalInt nodeOfBroker(String brokerUrl) {
        URI uri = URI.create(brokerUrl);
        int index = brokerPorts.indexOf(uri.getPort());
        return index >= 0 && addresses.get(index).equals(uri.getHost()) ? OptionalInt.of(index + 1)
                : OptionalInt.empty();
    }

    /** Broker K and bookie K (node BROKERS+K) run on host K. */
    @Override
    public int hostOf(int node) {
        return isBroker(checkNode(node)) ? node : node - BROKERS;
    }

    /** The node bookie {@code bookie} (from 1) is: the bookies come after the brokers. */
    public static int nodeOfBookie(int bookie) {
        if (bookie < 1 || bookie > BOOKIES) {
            throw new IllegalArgumentException("bookies are 1 to " + BOOKIES + ", got " + bookie);
        }
        return BROKERS + bookie;
    }

    /** Nodes 1 to 3, the brokers, hold only their conf; nodes 4 to 6, the bookies, their journal and ledgers. */
    @Override
    public Path dataDir(int node) {
        return tempDir().resolve("node-" + checkNode(node));
    }

    /** Only the bookies: their journal and ledgers are what a power cut may take. */
    @Override
    protected boolean onDataDisk(int node) {
        return !isBroker(node);
    }

    @Override
    public String toString() {
        return "pulsar cluster of " + BROKERS + " brokers and " + BOOKIES + " bookies at " + url() + " (admin API "
                + adminUrl() + ")";
    }

    @Override
    protected void bringUp(Readiness budget) {
        PulsarJvm.writeLog4jConfig(log4jConfig());
        secureIfAsked();
        writeConfs();
        ManagedProcess zk = startHelper(onHost(1, child("zookeeper", ZOOKEEPER_MAIN, ZOOKEEPER_HEAP, zooKeeperDir(),
                List.of(zooKeeperConf().toString()))));
        budget.await("zookeeper", zk.logFile(), List.of(zk), () -> accepts(address(1), zooKeeperPort));
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

    /**
     * zoo.cfg, and each node's broker.conf or bookkeeper.conf in its data dir ({@link #conf}), on its
     * host's address; after {@link #secureIfAsked}, whose files a secured broker's names.
     */
    void writeConfs() {
        createDirectories(zooKeeperDir());
        ClusterConf.writeZooKeeper(zooKeeperConf(), zooKeeperDir().resolve("data"), address(1), zooKeeperPort);
        for (int node = 1; node <= BROKERS + BOOKIES; node++) {
            createDirectories(dataDir(node));
            if (isBroker(node)) {
                int brokerPort = brokerPorts.get(node - 1);
                int webPort = webPorts.get(node - 1);
                ClusterConf.writeBroker(conf(node), address(node), zooKeeper(), brokerPort, webPort,
                        securedSettings(brokerPort, webPort), spec.broker().props());
            } else {
                ClusterConf.writeBookie(conf(node), address(node), spec.broker().placement().isolated(), zooKeeper(),
                        bookiePorts.get(node - BROKERS - 1), dataDir(node), spec.broker().props());
            }
        }
    }

    /** The cluster, its brokers' URLs, the BookKeeper metadata and public/default, in ZooKeeper: once, before any node. */
    private void writeClusterMetadata(Readiness budget) {
        Path dir = tempDir().resolve("setup");
        createDirectories(dir);
        ManagedProcess setup = startHelper(onHost(1, child("pulsar cluster metadata setup", SETUP_MAIN, SETUP_HEAP,
                dir, setupArguments())));
        budget.await("pulsar cluster metadata setup", setup.logFile(), List.of(), () -> !setup.isAlive());
        if (setup.exitCode().orElse(-1) != 0) {
            throw new UserError("the pulsar cluster metadata setup " + setup.exitDescription() + "; see "
                    + setup.logFile());
        }
    }

    /** PulsarClusterMetadataSetup's: the metadata store (host 1's), broker 1's web service, every broker's URL. */
    List<String> setupArguments() {
        List<String> args = new ArrayList<>(List.of("--cluster", ClusterConf.CLUSTER, "--metadata-store",
                "zk:" + zooKeeper(), "--configuration-metadata-store", "zk:" + zooKeeper(), "--web-service-url",
                webUrl(1), "--broker-service-url", url()));
        if (secured()) {
            args.addAll(List.of("--web-service-url-tls", webUrl(1), "--broker-service-url-tls", url()));
        }
        return args;
    }

    @Override
    protected void awaitNodeReady(int node, Readiness budget) {
        List<ManagedProcess> watched = List.of(startedNodes().get(node - 1));
        Path log = startedNodes().get(node - 1).logFile();
        if (isBroker(node)) {
            int web = webPorts.get(node - 1);
            budget.await(nodeName(node), log, watched, () -> accepts(address(node), web));
            budget.await(nodeName(node) + " health check", log, watched,
                    () -> PulsarJvm.healthy(web(), webUrl(node)));
        } else {
            int port = bookiePorts.get(node - BROKERS - 1);
            budget.await(nodeName(node), log, watched, () -> accepts(address(node), port));
        }
    }

    @Override
    protected ManagedProcess startNode(int node) {
        JavaChild child = isBroker(node)
                ? child(nodeName(node), BROKER_MAIN, spec.heap(), dataDir(node),
                        List.of("--broker-conf", conf(node).toString()))
                : child(nodeName(node), BOOKIE_MAIN, BOOKIE_HEAP, dataDir(node), List.of("-c", conf(node).toString()));
        return onHost(hostOf(node), child).start();
    }

    /** {@code child}'s command on the spec's cpus, in host {@code host}'s network namespace under --isolate. */
    private NativeCommand onHost(int host, JavaChild child) {
        return child.toCommand().withCpus(spec.broker().cpus()).withNetns(spec.broker().placement().namespace(host));
    }

    /** The address node {@code node}'s host has, which it binds and advertises: 127.0.0.1 without --isolate. */
    private String address(int node) {
        return addresses.get(hostOf(node) - 1);
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
        return webScheme() + "://" + address(broker) + ":" + webPorts.get(broker - 1);
    }

    private String zooKeeper() {
        return address(1) + ":" + zooKeeperPort;
    }

    private Path zooKeeperDir() {
        return tempDir().resolve("zookeeper");
    }

    Path zooKeeperConf() {
        return zooKeeperDir().resolve("zoo.cfg");
    }

    /** Node {@code node}'s file: broker.conf or bookkeeper.conf. */
    Path conf(int node) {
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
