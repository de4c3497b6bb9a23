package dev.msgbench.pulsar.broker;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.broker.JavaChild;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.broker.Readiness;

/**
 * One {@code pulsar standalone} (PulsarStandaloneStarter: a broker, one bookie and the RocksDB
 * metadata store in one JVM) on free ports of node 1's address (loopback, or with --isolate its
 * host's, in that host's network namespace), on a standalone.conf the suite writes
 * ({@link StandaloneConf}), with its data in a temp dir. Closing it, an exit, Ctrl+C, and a SIGKILL
 * of this JVM (through the child's watchdog) stop it.
 *
 * <p>Ready once the admin API's health check answers "ok" (the broker then has written a message
 * to its heartbeat topic, through the bookie, and read it back) and namespace public/default,
 * which the standalone creates after that, exists.
 *
 * <p>A node restarted after a kill or a stop ({@link #restartNode}) starts on the same ports,
 * conf and data dir: the metadata store and the bookie's journal and ledgers are where it left
 * them, so a topic keeps what the bookie had acknowledged (all of it with journalSyncData=true).
 *
 * <p>With a {@link dev.msgbench.core.broker.BrokerSpec#security} (--secure) it listens with TLS
 * only, on both ports, and demands a login ({@link SecuredBrokerConf}); the certificates, the
 * password file and the htpasswd file are in its temp dir's {@code tls} folder (mode 700), the
 * password itself in no file the broker reads and on no command line; so are the token login's
 * secret key and token ({@link TokenKey}), the token in no file the broker reads.
 *
 * <p>The JVM runs the standalone's own jars ({@link PulsarJvm#CLASS_PATH}), not this JVM's class path.
 */
public final class LocalPulsar extends AbstractLocalPulsar {

    private static final String MAIN = "org.apache.pulsar.PulsarStandaloneStarter";

    /** Node 1's: the broker and the web service bind it, the broker and the bookie advertise it. */
    private final String address;
    private final int brokerPort;
    private final int webPort;
    private final int bookiePort;
    private final Map<String, String> effectiveConf;

    private LocalPulsar(PulsarBrokerSpec spec, List<Path> jars, Path tempDir) {
        super(spec, jars, tempDir);
        if (spec.broker().nodes() != 1) {
            throw new IllegalArgumentException("a standalone is one node, asked for " + spec.broker().nodes()
                    + "; LocalPulsarCluster starts a cluster");
        }
        spec.broker().placement().requireNodes(1);
        this.address = spec.broker().placement().address(1);
        List<Integer> ports = FreePorts.take(3);
        this.brokerPort = ports.get(0);
        this.webPort = ports.get(1);
        this.bookiePort = ports.get(2);
        this.effectiveConf = StandaloneConf.effective(recordedSecurity(), spec.broker().props());
    }

    /**
     * Starts the standalone and returns once its health check says ok.
     *
     * @throws UserError when it exits or is not ready within the spec's timeout; it is stopped first
     */
    public static LocalPulsar start(PulsarBrokerSpec spec) {
        return start(spec, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** Test seam: the temp dir is made in {@code tempParent}, so a test can see what is left. */
    static LocalPulsar start(PulsarBrokerSpec spec, Path tempParent) {
        return timedStart(spec, tempParent, (jars, tempDir) -> new LocalPulsar(spec, jars, tempDir));
    }

    /** {@code pulsar://ADDRESS:PORT}, the binary protocol's service URL; {@code pulsar+ssl://} when secured. */
    @Override
    public String url() {
        return serviceScheme() + "://" + address + ":" + brokerPort;
    }

    /** {@code http://ADDRESS:PORT}, the admin REST API; {@code https://} when secured. */
    @Override
    public String adminUrl() {
        return webScheme() + "://" + address + ":" + webPort;
    }

    /** The standalone.conf settings msgbench wrote, the user's overrides included, without ports and paths. */
    @Override
    public Map<String, String> effectiveConf() {
        return effectiveConf;
    }

    @Override
    public String encryption() {
        return secured() ? "TLS and a login on the broker's client and admin ports; the bookie and the metadata "
                + "store are inside its JVM" : "none";
    }

    @Override
    public String kind() {
        return "standalone";
    }

    /** The one node runs the one broker. */
    @Override
    public OptionalInt nodeOfBroker(String brokerUrl) {
        return url().equals(brokerUrl) ? OptionalInt.of(1) : OptionalInt.empty();
    }

    @Override
    public Path dataDir(int node) {
        return tempDir().resolve("node-" + checkNode(node));
    }

    @Override
    public String toString() {
        return "pulsar standalone at " + url() + " (admin API " + adminUrl() + ")";
    }

    @Override
    protected void bringUp(Readiness budget) {
        PulsarJvm.writeLog4jConfig(log4jConfig());
        secureIfAsked();
        StandaloneConf.write(conf(), address, brokerPort, webPort, securedSettings(brokerPort, webPort),
                spec.broker().props());
        launch(1);
        awaitNodeReady(1, budget);
    }

    @Override
    protected void awaitNodeReady(int node, Readiness budget) {
        List<ManagedProcess> watched = List.of(startedNodes().get(node - 1));
        budget.await(nodeName(), logFile(), watched, () -> accepts(address, webPort));
        budget.await(nodeName() + " health check", logFile(), watched, this::healthy);
        budget.await(nodeName() + " namespace public/default", logFile(), watched,
                () -> PulsarJvm.defaultNamespaceExists(web(), adminUrl()));
    }

    /** "ok" once a message went through the broker and the bookie and back. */
    private boolean healthy() throws IOException, InterruptedException {
        return PulsarJvm.healthy(web(), adminUrl());
    }

    @Override
    protected ManagedProcess startNode(int node) {
        Path dir = dataDir(node);
        List<String> jvm = PulsarJvm.options(spec.heap(), log4jConfig());
        return new JavaChild(nodeName(), MAIN, jvm, arguments(conf(), address, bookiePort, dir), dir, logFile(),
                tempDir()).withClassPath(jars).toCommand().withCpus(spec.broker().cpus())
                .withNetns(spec.broker().placement().namespace(node)).start();
    }

    /**
     * PulsarStandaloneStarter's arguments: the conf, the bookie's port, the data under {@code dir},
     * and {@code address} as --advertised-address, which the starter sets on the broker over the
     * conf's (the bookie, on the RocksDB metadata store, reads the conf's advertisedAddress).
     */
    static List<String> arguments(Path conf, String address, int bookiePort, Path dir) {
        return List.of("--config", conf.toString(), "--no-functions-worker", "--no-stream-storage",
                "--advertised-address", address, "--bookkeeper-port", Integer.toString(bookiePort),
                "--bookkeeper-dir", dir.resolve("bookkeeper").toString(),
                "--metadata-dir", dir.resolve("metadata").toString(),
                // never there: the standalone takes the RocksDB metadata store only where it finds no ZooKeeper data
                "--zookeeper-dir", dir.resolve("zookeeper").toString());
    }

    private Path conf() {
        return dataDir(1).resolve("standalone.conf");
    }

    private Path log4jConfig() {
        return dataDir(1).resolve("log4j2.xml");
    }

    private String nodeName() {
        return "pulsar standalone";
    }

    private Path logFile() {
        return logDir().resolve("pulsar-1.log");
    }
}
