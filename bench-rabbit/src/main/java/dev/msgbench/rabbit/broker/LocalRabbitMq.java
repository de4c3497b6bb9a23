package dev.msgbench.rabbit.broker;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.AbstractLocalBroker;
import dev.msgbench.core.broker.BrokerProcesses;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.broker.NativeCommand;
import dev.msgbench.core.broker.Readiness;
import dev.msgbench.core.broker.Signal;
import dev.msgbench.core.security.LocalSecurity;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocketFactory;

/**
 * One RabbitMQ node from Debian's rabbitmq-server package, private to this JVM: its own node name,
 * cookie, ports (AMQP, distribution, epmd), config and data in a temp dir. Closing it, an exit and
 * Ctrl+C stop it; if this JVM is killed, the next start reaps it.
 *
 * <p>IMPLEMENTATION NOTES: {@code /usr/sbin/rabbitmq-server} switches to the rabbitmq user and its
 * /var/lib directory, so the script under /usr/lib/rabbitmq/bin is called directly, with every path
 * set through the environment. The Erlang port mapper (epmd) is started by us, in the foreground,
 * before the node: the node then uses it instead of daemonising one of its own, which would outlive
 * the node, escape its process tree and be missed by the stale reaper.
 *
 * <p>A node restarted after a kill or a stop ({@link #restartNode}) keeps its node name, cookie and
 * mnesia dir, and with them its durable queues and the persistent messages in them (a quorum
 * queue's, and a classic queue's that reached the disk: after a kill, what the node had not yet
 * written is gone, unless the publisher waited for its confirm). Transient queues and
 * non-persistent messages are gone. epmd runs on; the node registers with it again.
 */
public final class LocalRabbitMq extends AbstractLocalBroker {

    /** A clean shutdown takes about 1 s; a node that needs more is killed. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);
    /** After a failed start the data is thrown away; no point in a long shutdown. */
    private static final Duration ABORT_GRACE = Duration.ofSeconds(5);
    private static final Duration EPMD_GRACE = Duration.ofSeconds(3);
    private static final int CONNECT_TIMEOUT_MILLIS = 3_000;
    private static final String NODE = "rabbitmq node 1";

    private final RabbitBrokerSpec spec;
    private final int amqpPort;
    private final int distPort;
    private final int epmdPort;
    private final String nodeName;
    private volatile Map<String, String> conf = Map.of();
    /** Made with the node's files, in its temp dir: a failed start removes it with the rest. */
    private volatile LocalSecurity security;
    private final Path epmdBinary;
    private volatile String version = "unknown";

    private LocalRabbitMq(RabbitBrokerSpec spec, Path epmdBinary, Path tempDir) {
        super(1, tempDir, spec.logDir(), STOP_GRACE, ABORT_GRACE);
        this.spec = spec;
        this.epmdBinary = epmdBinary;
        List<Integer> ports = FreePorts.take(3);
        this.amqpPort = ports.get(0);
        this.distPort = ports.get(1);
        this.epmdPort = ports.get(2);
        this.nodeName = "msgbench-" + amqpPort + "@localhost";
    }

    /**
     * Starts a node and returns once it serves AMQP connections.
     *
     * @throws UserError when rabbitmq-server is not installed, the node fails, or it is not ready
     *                   within the spec's timeout; whatever was started is stopped first
     */
    public static LocalRabbitMq start(RabbitBrokerSpec spec) {
        return start(spec, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** Test seam: the temp dir is made in {@code tempParent}, so a test can see what is left. */
    static LocalRabbitMq start(RabbitBrokerSpec spec, Path tempParent) {
        Path epmdBinary = requireInstalled(spec);
        return startBroker("rabbitmq", tempParent, spec.startTimeout(),
                tempDir -> new LocalRabbitMq(spec, epmdBinary, tempDir));
    }

    /**
     * {@code amqp://127.0.0.1:PORT}, where the default guest user may log in over loopback; a
     * secured node's is {@code amqps://127.0.0.1:PORT}, the login in {@link #localSecurity}.
     */
    @Override
    public String url() {
        return (spec.security() == null ? "amqp" : "amqps") + "://127.0.0.1:" + amqpPort;
    }

    /** The certificates and login of a node started with a {@link RabbitBrokerSpec#security}, else null. */
    @Override
    public LocalSecurity localSecurity() {
        return security;
    }

    /** As the node reports it in its connection properties, e.g. 3.10.8. */
    @Override
    public String version() {
        return version;
    }

    /** The node's log: RabbitMQ's own log and the output of its start script, in one file. */
    public Path logFile() {
        return logDir().resolve("rabbitmq-1.log");
    }

    /**
     * The rabbitmq.conf settings, the user's included, without the node's directories and without
     * a secured node's login; ports are chosen per run. Empty until the node is started.
     */
    public Map<String, String> conf() {
        return conf;
    }

    @Override
    public String toString() {
        return "rabbitmq node " + nodeName + " at " + url();
    }

    @Override
    protected void bringUp(Readiness budget) {
        writeFiles();
        ManagedProcess epmd = startEpmd(budget);
        ManagedProcess server = launch(1);
        awaitReady(budget, List.of(server, epmd));
    }

    private static Path requireInstalled(RabbitBrokerSpec spec) {
        if (!Files.isExecutable(spec.serverScript())) {
            throw new UserError("rabbitmq-server is not installed (" + spec.serverScript() + " is missing); "
                    + "install it with apt-get install rabbitmq-server, or pass --url amqp://HOST:PORT");
        }
        Path epmd = findEpmd();
        if (epmd == null) {
            throw new UserError("epmd (Erlang's port mapper) is not installed; install it with apt-get install "
                    + "rabbitmq-server, or pass --url amqp://HOST:PORT");
        }
        return epmd;
    }

    private static Path findEpmd() {
        List<Path> candidates = new ArrayList<>();
        String path = Objects.requireNonNullElse(System.getenv("PATH"), "");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir, "epmd"));
            }
        }
        candidates.add(Path.of("/usr/lib/erlang/bin/epmd"));
        return candidates.stream().filter(Files::isExecutable).findFirst().orElse(null);
    }

    private void writeFiles() {
        Path tempDir = tempDir();
        if (spec.security() != null) {
            security = LocalSecurity.create(tempDir.resolve("tls"), spec.security());
        }
        conf = Collections.unmodifiableMap(RabbitConf.of(amqpPort, spec.brokerProps(), security));
        try {
            Path home = Files.createDirectories(tempDir.resolve("home"));
            // Erlang refuses a cookie that others can read; a fresh one keeps other nodes out
            Path cookie = home.resolve(".erlang.cookie");
            Files.writeString(cookie, randomCookie());
            Files.setPosixFilePermissions(cookie, PosixFilePermissions.fromString("r--------"));
            Files.createDirectories(tempDir.resolve("mnesia"));
            Files.createDirectories(tempDir.resolve("log"));
            // an empty env file: else /etc/rabbitmq/rabbitmq-env.conf would be read
            Files.writeString(tempDir.resolve("rabbitmq-env.conf"), "");
            Files.writeString(tempDir.resolve("enabled_plugins"), "[].\n");
            RabbitConf.write(conf, security, tempDir.resolve("rabbitmq.conf"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the rabbitmq node files in " + tempDir, e);
        }
    }

    private ManagedProcess startEpmd(Readiness budget) {
        Path log = logDir().resolve("epmd-1.log");
        ManagedProcess epmd = startHelper(new NativeCommand("epmd of " + NODE, List.of(epmdBinary.toString(), "-port",
                Integer.toString(epmdPort), "-address", "127.0.0.1"), Map.of(), tempDir(), log, tempDir())
                .withCpus(spec.cpus()));
        budget.await("epmd of " + NODE, log, List.of(epmd), () -> accepts(epmdPort));
        return epmd;
    }

    /** The start script, whose process is the node's pid; the Erlang VM (beam.smp) is its child. */
    @Override
    protected ManagedProcess startNode(int node) {
        Path tempDir = tempDir();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", tempDir.resolve("home").toString());
        env.put("RABBITMQ_NODENAME", nodeName);
        if (security == null) {
            // a secured node's listeners are all in rabbitmq.conf: these would add a plain one
            env.put("RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1");
            env.put("RABBITMQ_NODE_PORT", Integer.toString(amqpPort));
        }
        env.put("RABBITMQ_DIST_PORT", Integer.toString(distPort));
        env.put("ERL_EPMD_PORT", Integer.toString(epmdPort));
        env.put("ERL_EPMD_ADDRESS", "127.0.0.1");
        env.put("RABBITMQ_BASE", tempDir.toString());
        env.put("RABBITMQ_CONF_ENV_FILE", tempDir.resolve("rabbitmq-env.conf").toString());
        env.put("RABBITMQ_CONFIG_FILE", tempDir.resolve("rabbitmq.conf").toString());
        // absent on purpose: else /etc/rabbitmq/advanced.config would be read
        env.put("RABBITMQ_ADVANCED_CONFIG_FILE", tempDir.resolve("advanced.config").toString());
        env.put("RABBITMQ_ENABLED_PLUGINS_FILE", tempDir.resolve("enabled_plugins").toString());
        env.put("RABBITMQ_MNESIA_BASE", tempDir.resolve("mnesia").toString());
        env.put("RABBITMQ_LOG_BASE", tempDir.resolve("log").toString());
        // "-" is standard output, which goes to our log file: one file with everything
        env.put("RABBITMQ_LOGS", "-");
        env.put("RABBITMQ_PID_FILE", tempDir.resolve("rabbitmq.pid").toString());
        env.put("RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS", "-kernel inet_dist_use_interface {127,0,0,1}");
        // the script, the Erlang VM and its port programs all inherit the CPUs
        return new NativeCommand(NODE, List.of(spec.serverScript().toString()), env, tempDir, logFile(), tempDir)
                .withCpus(spec.cpus()).start();
    }

    /** The restarted node answers the AMQP greeting, as at the start. */
    @Override
    protected void awaitNodeReady(int node, Readiness budget) {
        budget.await(NODE, logFile(), startedNodes(), () -> AmqpGreeting.answers(amqpPort, greetingTls()));
    }

    /** A secured node greets only over TLS, and with mutual TLS only a client with a certificate. */
    private SSLSocketFactory greetingTls() {
        return security == null ? null : security.pki().clientTls().sslContext().getSocketFactory();
    }

    private void awaitReady(Readiness budget, List<ManagedProcess> watched) {
        try {
            budget.await(NODE, logFile(), watched, () -> AmqpGreeting.answers(amqpPort, greetingTls()));
        } catch (UserError e) {
            String rejected = StartFailure.configurationErrors(logFile());
            if (rejected != null) {
                throw new UserError("--broker-prop: rabbitmq-server rejected its configuration (" + rejected + "); see "
                        + logFile(), e);
            }
            throw e;
        }
        budget.await(NODE, logFile(), watched, () -> {
            version = serverVersion();
            return true;
        });
    }

    /** A real connection, as clients will make it; its properties carry the version. */
    private String serverVersion() throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("127.0.0.1");
        factory.setPort(amqpPort);
        factory.setConnectionTimeout(CONNECT_TIMEOUT_MILLIS);
        factory.setHandshakeTimeout(CONNECT_TIMEOUT_MILLIS);
        factory.setAutomaticRecoveryEnabled(false);
        if (security != null) {
            factory.useSslProtocol(security.pki().clientTls().sslContext());
            factory.enableHostnameVerification();
            factory.setUsername(security.login().user());
            factory.setPassword(security.login().password().reveal());
        }
        try (Connection connection = factory.newConnection("msgbench-ready-check")) {
            Object v = connection.getServerProperties().get("version");
            return v == null ? "unknown" : v.toString();
        }
    }

    /** Node first, then its epmd: epmd must outlive the node's deregistration. */
    @Override
    protected void stopProcesses(List<ManagedProcess> nodes, List<ManagedProcess> helpers, Duration grace) {
        RuntimeException failure = null;
        for (ManagedProcess server : nodes) {
            try {
                stopServer(server, grace);
            } catch (RuntimeException e) {
                failure = BrokerProcesses.addTo(failure, e);
            }
        }
        for (ManagedProcess epmd : helpers) {
            try {
                killEpmd(epmd);
            } catch (RuntimeException e) {
                failure = BrokerProcesses.addTo(failure, e);
            }
            try {
                epmd.stop(EPMD_GRACE);
            } catch (RuntimeException e) {
                failure = BrokerProcesses.addTo(failure, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * TERM to the start script alone: it traps the signal, TERMs the Erlang VM and waits for it, and
     * the VM stops its own helper processes. A TERM to the whole tree at once would kill those
     * helpers under the running node, which logs their deaths as crashes. What is left after the
     * grace period is ended by {@link ManagedProcess#stop}.
     */
    private static void stopServer(ManagedProcess server, Duration grace) {
        if (server.isAlive()) {
            // a node frozen for fault injection cannot act on TERM
            server.signal(Signal.CONT);
            ProcessHandle.of(server.pid()).ifPresent(ProcessHandle::destroy);
            server.awaitExit(grace);
        }
        server.stop(Duration.ofSeconds(2));
    }

    /** Asks epmd to exit, the way Erlang's tools do; {@link ManagedProcess#stop} makes sure of it. */
    private void killEpmd(ManagedProcess epmd) {
        if (!epmd.isAlive()) {
            return;
        }
        ProcessBuilder builder = new ProcessBuilder(epmdBinary.toString(), "-kill")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(epmd.logFile().toFile()));
        // without it, epmd -kill would stop the machine's default epmd on port 4369
        builder.environment().put("ERL_EPMD_PORT", Integer.toString(epmdPort));
        try {
            Process kill = builder.start();
            if (!kill.waitFor(EPMD_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run epmd -kill for port " + epmdPort, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String randomCookie() {
        SecureRandom random = new SecureRandom();
        StringBuilder cookie = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            cookie.append((char) ('A' + random.nextInt(26)));
        }
        return cookie.toString();
    }
}
