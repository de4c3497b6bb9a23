package dev.msgbench.kafka.broker;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.AbstractLocalBroker;
import dev.msgbench.core.broker.BrokerClasspath;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.broker.JavaChild;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.broker.Readiness;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.Uuid;

import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.LocalSecurity;
import dev.msgbench.kafka.KafkaClientSecurity;

/**
 * A Kafka cluster in KRaft combined mode (every node is broker and controller), each node in a
 * JVM of its own, with data in a temp dir. Closing it, an exit, Ctrl+C, and even a SIGKILL of
 * this JVM (through the child's watchdog) stop the nodes.
 *
 * <p>Start-up: format every node's storage (in parallel, a JVM each), start every node, wait
 * until each listens and an admin client sees all of them.
 *
 * <p>A node restarted after a kill or a stop ({@link #restartNode}) runs on its own
 * {@code server.properties} and {@code log.dirs}: as broker it recovers its log (after a kill,
 * from the last flushed segment; Kafka does not fsync each write unless {@code flush.messages} is
 * set) and catches up from the partition leaders as a follower; as controller it rejoins the
 * KRaft quorum. Its node.id is its node number.
 *
 * <p>The nodes and the storage tool run on the broker's own jars ({@link #CLASS_PATH}), not on
 * this JVM's class path, which has only kafka-clients.
 */
public final class LocalKafkaCluster extends AbstractLocalBroker {

    /** kafka_2.13 and everything it needs, with log4j for the nodes' logs (bench-kafka-broker's pom). */
    static final BrokerClasspath CLASS_PATH = BrokerClasspath.named("kafka");
    private static final String KAFKA_MAIN = "kafka.Kafka";
    private static final String STORAGE_TOOL = "kafka.tools.StorageTool";
    private static final String LOG4J_RESOURCE = "kafka-node-log4j2.xml";
    /** Long enough for a controlled shutdown; a node that needs more is killed. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);
    /** After a failed start the data is thrown away; no point in a long shutdown. */
    private static final Duration ABORT_GRACE = Duration.ofSeconds(5);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(3);
    /** Kafka's own default for SCRAM credentials (kafka-configs.sh); at least 4096 as RFC 7677 asks. */
    private static final int SCRAM_ITERATIONS = 4096;

    /*
     * The options of bin/kafka-run-class.sh, so the broker runs as it does when installed; the
     * heap is set from the spec, -Xms equal to -Xmx like kafka-server-start.sh.
     */
    private static final List<String> SERVER_JVM_OPTIONS = List.of("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20",
            "-XX:InitiatingHeapOccupancyPercent=35", "-XX:+ExplicitGCInvokesConcurrent", "-Djava.awt.headless=true");
    /** Formatting is a one-second tool run: start fast, nothing to tune. */
    private static final List<String> TOOL_JVM_OPTIONS = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC", "-Djava.awt.headless=true");

    private final KafkaClusterSpec spec;
    private final List<Path> jars;
    private final List<KafkaNode> nodes;
    private final Map<String, String> effectiveProps;
    /** Made in the temp dir during the start, so a failed start removes the keys with the rest. */
    private volatile SecuredListener secured;

    private LocalKafkaCluster(KafkaClusterSpec spec, List<Path> jars, Path tempDir) {
        super(spec.broker(), tempDir, STOP_GRACE, ABORT_GRACE);
        spec.broker().placement().requireNodes(spec.broker().nodes());
        this.spec = spec;
        this.jars = jars;
        int perNode = spec.broker().security() == null ? 2 : 3;
        List<Integer> ports = FreePorts.take(perNode * spec.broker().nodes());
        List<KafkaNode> list = new ArrayList<>();
        for (int id = 1; id <= spec.broker().nodes(); id++) {
            int base = perNode * (id - 1);
            list.add(new KafkaNode(id, ports.get(base), ports.get(base + 1), tempDir.resolve("node-" + id),
                    logDir().resolve("kafka-" + id + ".log"), perNode == 3 ? ports.get(base + 2) : 0,
                    spec.broker().placement().address(id)));
        }
        this.nodes = List.copyOf(list);
        Map<String, String> first = ServerProperties.of(nodes.get(0), nodes, spec.broker().props());
        first.keySet().removeAll(ServerProperties.PER_RUN);
        if (spec.broker().security() != null) {
            first.putAll(SecuredListener.summaryOf(spec.broker().security()));
        }
        this.effectiveProps = Collections.unmodifiableMap(new TreeMap<>(first));
    }

    /**
     * Starts a cluster and returns once it serves requests.
     *
     * @throws UserError when a node fails or the cluster is not ready within the spec's timeout;
     *                   whatever was started is stopped first
     */
    public static LocalKafkaCluster start(KafkaClusterSpec spec) {
        return start(spec, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** Test seam: the temp dir is made in {@code tempParent}, so a test can see what is left. */
    static LocalKafkaCluster start(KafkaClusterSpec spec, Path tempParent) {
        // before the start's budget: on a machine that lacks the jars, their download is not the broker's start
        List<Path> jars = CLASS_PATH.jars();
        return startBroker("kafka", tempParent, spec.broker().startTimeout(),
                tempDir -> new LocalKafkaCluster(spec, jars, tempDir));
    }

    @Override
    public String url() {
        return nodes.stream().map(KafkaNode::bootstrap).collect(Collectors.joining(","));
    }

    /** The version of the broker's jars, which the nodes run. */
    @Override
    public String version() {
        return CLASS_PATH.version("kafka_2.13");
    }

    /**
     * The server properties msgbench set, the user's overrides included, without ports and paths.
     * Everything else is Kafka's default.
     */
    public Map<String, String> effectiveBrokerProps() {
        return effectiveProps;
    }

    /** The certificates and login of a cluster started with a {@link KafkaClusterSpec#security}, else null. */
    @Override
    public LocalSecurity localSecurity() {
        SecuredListener listener = secured;
        return listener == null ? null : listener.security();
    }

    @Override
    public Path dataDir(int node) {
        return nodes.get(checkNode(node) - 1).dataDir();
    }

    @Override
    public String toString() {
        return (spec.broker().security() == null ? "" : "secured ") + "kafka cluster of " + nodesText() + " at "
                + url();
    }

    @Override
    protected void bringUp(Readiness budget) {
        if (spec.broker().security() != null) {
            Path tls = tempDir().resolve("tls");
            LocalSecurity security = LocalSecurity.create(tls, spec.broker().security(), spec.broker().placement());
            secured = SecuredListener.create(security, tls.resolve("server-keystore.pem"));
        }
        writeConfigs();
        formatStorage(budget);
        launchAll();
        awaitReady(budget);
    }

    /** The node's JVM, with the heap of the spec and the options kafka-server-start.sh gives it. */
    @Override
    protected ManagedProcess startNode(int id) {
        KafkaNode node = nodes.get(id - 1);
        List<String> jvm = new ArrayList<>(List.of("-Xmx" + spec.heap(), "-Xms" + spec.heap()));
        jvm.addAll(SERVER_JVM_OPTIONS);
        return start(node, javaChild(node, node.name(), KAFKA_MAIN, jvm, List.of(node.serverProperties().toString())));
    }

    private void writeConfigs() {
        try {
            for (KafkaNode node : nodes) {
                Files.createDirectories(node.dir());
                ServerProperties.write(ServerProperties.of(node, nodes, spec.broker().props(), secured),
                        node.serverProperties());
                try (InputStream config = LocalKafkaCluster.class.getResourceAsStream(LOG4J_RESOURCE)) {
                    if (config == null) {
                        throw new IllegalStateException(LOG4J_RESOURCE + " is missing from the class path");
                    }
                    Files.copy(config, node.log4jConfig(), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the kafka node configs in " + tempDir(), e);
        }
    }

    /** A JVM per node, all at once: formatting is mostly JVM start-up. */
    private void formatStorage(Readiness budget) {
        String clusterId = Uuid.randomUuid().toString();
        List<ManagedProcess> formats = new ArrayList<>();
        try {
            for (KafkaNode node : nodes) {
                List<String> args = new ArrayList<>(List.of("format", "-t", clusterId, "-c",
                        node.serverProperties().toString()));
                if (nodes.size() == 1) {
                    args.add("--standalone");
                }
                formats.add(start(node, javaChild(node, node.name() + " storage format", STORAGE_TOOL, TOOL_JVM_OPTIONS,
                        args)));
            }
            for (int i = 0; i < formats.size(); i++) {
                ManagedProcess format = formats.get(i);
                OptionalInt code = format.awaitExit(budget.remaining());
                if (code.isEmpty()) {
                    throw new UserError(format.name() + " did not finish within " + budget.timeout().toSeconds()
                            + " s; see " + format.logFile());
                }
                if (code.getAsInt() != 0) {
                    throw new UserError(format.name() + " failed with exit code " + code.getAsInt() + "; see "
                            + format.logFile());
                }
            }
        } finally {
            ManagedProcess.stopAll(formats, Duration.ZERO);
        }
    }

    private void awaitReady(Readiness budget) {
        List<ManagedProcess> watched = startedNodes();
        for (KafkaNode node : nodes) {
            budget.await(node.name(), node.logFile(), watched, () -> accepts(node.host(), node.port()));
        }
        String subject = nodes.size() == 1 ? nodes.get(0).name() : "kafka cluster of " + nodes.size() + " nodes";
        Path log = nodes.size() == 1 ? nodes.get(0).logFile() : logDir();
        long wait = ADMIN_TIMEOUT.toMillis() + 1000;
        Admin admin = Admin.create(adminConfig());
        try {
            budget.await(subject, log, watched, () ->
                    admin.describeCluster().nodes().get(wait, TimeUnit.MILLISECONDS).size() == nodes.size()
                            && admin.listTopics().names().get(wait, TimeUnit.MILLISECONDS) != null);
            if (secured != null) {
                addScramCredentials(admin, wait);
            }
        } finally {
            admin.close(ADMIN_TIMEOUT);
        }
        if (secured != null) {
            awaitLogin(budget, subject, log, watched, wait);
        }
    }

    /*
     * SCRAM credentials live in the cluster's metadata; made through the internal listener, which
     * needs no login, the password travels only inside this JVM's request, never on a command line.
     */
    private void addScramCredentials(Admin admin, long waitMillis) {
        BrokerSecurity login = spec.broker().security();
        try {
            // one user's credential once per request, so a request per mechanism
            for (ScramMechanism mechanism : List.of(ScramMechanism.SCRAM_SHA_512, ScramMechanism.SCRAM_SHA_256)) {
                admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(login.user(),
                                new ScramCredentialInfo(mechanism, SCRAM_ITERATIONS), login.password().reveal())))
                        .all().get(waitMillis, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("start of " + this + " was interrupted", e);
        } catch (Exception e) {
            throw new UserError("cannot create the SCRAM login of user '" + login.user() + "' on " + this + ": "
                    + e.getMessage(), e);
        }
    }

    /** Every node's metadata has the credential once a client logs in with it through the secured listener. */
    private void awaitLogin(Readiness budget, String subject, Path log, List<ManagedProcess> watched, long waitMillis) {
        for (KafkaNode node : nodes) {
            Properties config = adminConfig(node.bootstrap());
            config.putAll(KafkaClientSecurity.props(localSecurity().client(), KafkaClientSecurity.DEFAULT_MECHANISM));
            Admin admin = Admin.create(config);
            try {
                budget.await(subject + " login over TLS", log, watched, () ->
                        admin.describeCluster().clusterId().get(waitMillis, TimeUnit.MILLISECONDS) != null);
            } finally {
                admin.close(ADMIN_TIMEOUT);
            }
        }
    }

    /** The node listens and the cluster counts it among its brokers again (registered, unfenced). */
    @Override
    protected void awaitNodeReady(int id, Readiness budget) {
        KafkaNode node = nodes.get(id - 1);
        List<ManagedProcess> watched = List.of(startedNodes().get(id - 1));
        budget.await(node.name(), node.logFile(), watched, () -> accepts(node.host(), node.port()));
        Admin admin = Admin.create(adminConfig());
        try {
            long wait = ADMIN_TIMEOUT.toMillis() + 1000;
            budget.await(node.name() + " registered with the cluster", node.logFile(), watched, () ->
                    admin.describeCluster().nodes().get(wait, TimeUnit.MILLISECONDS).stream()
                            .anyMatch(n -> n.id() == id));
        } finally {
            admin.close(ADMIN_TIMEOUT);
        }
    }

    /** Over the brokers' own listener, which needs no login even when clients must log in. */
    private Properties adminConfig() {
        return adminConfig(secured == null ? url()
                : nodes.stream().map(KafkaNode::internal).collect(Collectors.joining(",")));
    }

    private Properties adminConfig(String bootstrap) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "msgbench-ready-check");
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis() - 1000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis());
        return config;
    }

    private JavaChild javaChild(KafkaNode node, String name, String mainClass, List<String> jvmOptions,
                                List<String> args) {
        List<String> jvm = new ArrayList<>(jvmOptions);
        jvm.add("-Dlog4j2.configurationFile=" + node.log4jConfig());
        return new JavaChild(name, mainClass, jvm, args, node.dir(), node.logFile(), tempDir()).withClassPath(jars);
    }

    private ManagedProcess start(KafkaNode node, JavaChild child) {
        return child.toCommand().withCpus(spec.broker().cpus())
                .withNetns(spec.broker().placement().namespace(node.id())).start();
    }
}
