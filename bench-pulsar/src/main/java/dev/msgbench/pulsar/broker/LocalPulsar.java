package dev.msgbench.pulsar.broker;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.AbstractLocalBroker;
import dev.msgbench.core.broker.BrokerClasspath;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.broker.JavaChild;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.broker.Readiness;

/**
 * One {@code pulsar standalone} (PulsarStandaloneStarter: a broker, one bookie and the RocksDB
 * metadata store in one JVM) on free loopback ports, on a standalone.conf the suite writes
 * ({@link StandaloneConf}), with its data in a temp dir. Closing it, an exit, Ctrl+C, and a SIGKILL
 * of this JVM (through the child's watchdog) stop it.
 *
 * <p>Ready once the admin API's health check answers "ok": the broker then has written a message
 * to its heartbeat topic, through the bookie, and read it back.
 *
 * <p>A node restarted after a kill or a stop ({@link #restartNode}) starts on the same ports,
 * conf and data dir: the metadata store and the bookie's journal and ledgers are where it left
 * them, so a topic keeps what the bookie had acknowledged (all of it with journalSyncData=true).
 *
 * <p>The JVM runs the standalone's own jars ({@link #CLASS_PATH}), not this JVM's class path.
 */
public final class LocalPulsar extends AbstractLocalBroker {

    /** pulsar-broker and everything it needs, with log4j for the node's log (bench-pulsar-broker's pom). */
    static final BrokerClasspath CLASS_PATH = BrokerClasspath.named("pulsar");
    private static final String MAIN = "org.apache.pulsar.PulsarStandaloneStarter";
    private static final String LOG4J_RESOURCE = "pulsar-node-log4j2.xml";
    private static final String LOOPBACK = "127.0.0.1";
    /** The broker closes its topics and the bookie flushes its journal on TERM; more is a hang. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final Duration ABORT_GRACE = Duration.ofSeconds(5);
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(10);

    /*
     * What bin/pulsar gives a JVM on Java 17 (its --add-opens, for netty, BookKeeper and the
     * broker's metrics), with the heap of the spec and as much direct memory.
     */
    private static final List<String> JVM_OPTIONS = List.of("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=10",
            "-XX:+ParallelRefProcEnabled", "-XX:+DoEscapeAnalysis", "-Djava.awt.headless=true",
            "-Dio.netty.tryReflectionSetAccessible=true", "-Dio.netty.leakDetectionLevel=disabled",
            "-Dpulsar.allocator.exit_on_oom=true",
            "--add-opens", "java.base/java.io=ALL-UNNAMED", "--add-opens", "java.base/java.util.zip=ALL-UNNAMED",
            "--add-opens", "java.base/sun.net=ALL-UNNAMED", "--add-opens", "java.management/sun.management=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED");

    private final PulsarBrokerSpec spec;
    private final List<Path> jars;
    private final int brokerPort;
    private final int webPort;
    private final int bookiePort;
    private final Map<String, String> effectiveConf;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private volatile Duration startTime;

    private LocalPulsar(PulsarBrokerSpec spec, List<Path> jars, Path tempDir) {
        super(spec.broker(), tempDir, STOP_GRACE, ABORT_GRACE);
        if (spec.broker().nodes() != 1) {
            throw new UserError("--brokers " + spec.broker().nodes() + ": a local Pulsar is one standalone for now "
                    + "(broker, bookie and metadata store in one JVM); use --brokers 1, or --url for a cluster");
        }
        if (spec.broker().placement().isolated()) {
            throw new UserError("--isolate: a local Pulsar standalone runs on loopback only for now; leave out --isolate");
        }
        this.spec = spec;
        this.jars = jars;
        List<Integer> ports = FreePorts.take(3);
        this.brokerPort = ports.get(0);
        this.webPort = ports.get(1);
        this.bookiePort = ports.get(2);
        this.effectiveConf = StandaloneConf.effective(spec.broker().props());
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
        // before the start's budget: on a machine that lacks the jars, their download is not the broker's start
        List<Path> jars = CLASS_PATH.jars();
        long begin = System.nanoTime();
        LocalPulsar pulsar = startBroker("pulsar", tempParent, spec.broker().startTimeout(),
                tempDir -> new LocalPulsar(spec, jars, tempDir));
        pulsar.startTime = Duration.ofNanos(System.nanoTime() - begin);
        return pulsar;
    }

    /** {@code pulsar://127.0.0.1:PORT}, the binary protocol's service URL. */
    @Override
    public String url() {
        return "pulsar://" + LOOPBACK + ":" + brokerPort;
    }

    /** {@code http://127.0.0.1:PORT}, the admin REST API. */
    public String adminUrl() {
        return "http://" + LOOPBACK + ":" + webPort;
    }

    /** The admin API is on a port of its own, which a client given only the service URL cannot guess. */
    @Override
    public List<String> clientFlags() {
        return List.of("--pulsar-admin-url", adminUrl());
    }

    /** From the launch of the JVM to the first "ok" of the health check. */
    public Duration startTime() {
        return startTime;
    }

    /** The version of the standalone's jars. */
    @Override
    public String version() {
        return CLASS_PATH.version("pulsar-broker");
    }

    /** The standalone.conf settings msgbench wrote, the user's overrides included, without ports and paths. */
    public Map<String, String> effectiveConf() {
        return effectiveConf;
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
        Path dir = dataDir(1);
        try {
            Files.createDirectories(dir);
            try (InputStream config = LocalPulsar.class.getResourceAsStream(LOG4J_RESOURCE)) {
                if (config == null) {
                    throw new IllegalStateException(LOG4J_RESOURCE + " is missing from the class path");
                }
                Files.copy(config, log4jConfig(), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the pulsar standalone's files in " + dir, e);
        }
        StandaloneConf.write(conf(), LOOPBACK, brokerPort, webPort, spec.broker().props());
        launch(1);
        awaitNodeReady(1, budget);
    }

    @Override
    protected void awaitNodeReady(int node, Readiness budget) {
        List<ManagedProcess> watched = List.of(startedNodes().get(node - 1));
        budget.await(nodeName(), logFile(), watched, () -> accepts(LOOPBACK, webPort));
        budget.await(nodeName() + " health check", logFile(), watched, this::healthy);
    }

    /** GET /admin/v2/brokers/health: "ok" once a message went through the broker and the bookie and back. */
    private boolean healthy() throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(adminUrl() + "/admin/v2/brokers/health"))
                .timeout(HEALTH_TIMEOUT).GET().build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        return response.statusCode() == 200 && "ok".equals(response.body().strip());
    }

    @Override
    protected ManagedProcess startNode(int node) {
        Path dir = dataDir(node);
        List<String> jvm = new ArrayList<>(List.of("-Xmx" + spec.heap(), "-Xms" + spec.heap(),
                "-XX:MaxDirectMemorySize=" + spec.heap(), "-Dlog4j2.configurationFile=" + log4jConfig()));
        jvm.addAll(JVM_OPTIONS);
        List<String> args = List.of("--config", conf().toString(), "--no-functions-worker", "--no-stream-storage",
                "--advertised-address", LOOPBACK, "--bookkeeper-port", Integer.toString(bookiePort),
                "--bookkeeper-dir", dir.resolve("bookkeeper").toString(),
                "--metadata-dir", dir.resolve("metadata").toString(),
                // never there: the standalone takes the RocksDB metadata store only where it finds no ZooKeeper data
                "--zookeeper-dir", dir.resolve("zookeeper").toString());
        return new JavaChild(nodeName(), MAIN, jvm, args, dir, logFile(), tempDir()).withClassPath(jars)
                .toCommand().withCpus(spec.broker().cpus()).start();
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
