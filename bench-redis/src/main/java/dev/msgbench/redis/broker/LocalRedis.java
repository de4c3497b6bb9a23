package dev.msgbench.redis.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.AbstractLocalBroker;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.broker.NativeCommand;
import dev.msgbench.core.broker.Readiness;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.LocalSecurity;
import dev.msgbench.core.security.Pki;
import dev.msgbench.redis.resp.Resp;

/**
 * Debian's redis-server as child processes on free loopback ports, data in a temp dir: node 1
 * is the primary, nodes 2..N replicate it. Closing it, an exit and Ctrl+C stop the nodes and
 * remove the temp dir.
 *
 * <p>Persistence is off unless asked for ({@code --save '' --appendonly no}). That is not what
 * an off-the-shelf redis-server does: with no config file, and with Debian's redis.conf, it
 * snapshots (RDB) on the schedule {@code save 3600 1 300 100 60 10000}, with AOF off. A snapshot
 * forks the server in the middle of a measurement, and a run's data is thrown away anyway;
 * {@code --broker-prop save="3600 1 300 100 60 10000"} restores the off-the-shelf behaviour.
 *
 * <p>So with the defaults a node restarted after a kill or a stop ({@link #restartNode}) keeps
 * nothing: it starts empty on its old port and data dir. Pub/sub keeps nothing anyway (its
 * subscribers must subscribe again); a stream is gone, and replicas that resync from a restarted,
 * empty primary drop their copy too. With {@code appendonly yes} a node reloads its AOF (up to the
 * last fsync, {@code appendfsync}); with {@code save} its last snapshot.
 *
 * <p>With {@link RedisBrokerSpec#security()} (--secure) every node listens on TLS only, with a
 * throwaway CA made in the temp dir, and knows one ACL user (the default user is off); replicas
 * follow the primary over TLS with that login. The password is only in a config file in the temp
 * dir, owner-only: never on a command line, which {@code ps} shows, nor in a log.
 */
public final class LocalRedis extends AbstractLocalBroker {

    /** Settings msgbench passes to every node; --broker-prop comes after them and wins. */
    static final Map<String, String> DEFAULTS = defaults();
    /** Redis exits within milliseconds on TERM, after an AOF fsync when AOF is on. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration ABORT_GRACE = Duration.ofSeconds(2);

    private final RedisBrokerSpec spec;
    private final Path binary;
    private final List<Integer> ports;
    private final Map<String, String> effectiveArgs;
    private volatile String version = "unknown";
    /** Made by the first {@link #bringUp}, inside the temp dir, so that a failed start removes it too. */
    private volatile LocalSecurity security;
    private volatile javax.net.ssl.SSLContext probeTls;

    private LocalRedis(RedisBrokerSpec spec, Path binary, Path tempDir) {
        super(spec.broker(), tempDir, STOP_GRACE, ABORT_GRACE);
        spec.broker().placement().requireNodes(spec.broker().nodes());
        this.spec = spec;
        this.binary = binary;
        this.ports = FreePorts.take(spec.broker().nodes());
        Map<String, String> args = new LinkedHashMap<>(DEFAULTS);
        if (spec.broker().nodes() > 1) {
            // an empty primary: no reason to wait 5 s for more replicas before the first sync
            args.put("repl-diskless-sync-delay", "0");
        }
        args.putAll(spec.broker().props());
        this.effectiveArgs = Collections.unmodifiableMap(args);
    }

    /**
     * Starts the nodes and returns once the primary answers PING and every replica is in sync.
     *
     * @throws UserError when redis-server is missing, a node exits or is not ready in time; whatever
     *                   was started is stopped first
     */
    public static LocalRedis start(RedisBrokerSpec spec) {
        return start(spec, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** Test seam: the temp dir is made in {@code tempParent}, so a test can see what is left. */
    static LocalRedis start(RedisBrokerSpec spec, Path tempParent) {
        Path binary = RedisBinary.locate(spec.binary(), System.getenv("PATH"));
        return startBroker("redis", tempParent, spec.broker().startTimeout(),
                tempDir -> new LocalRedis(spec, binary, tempDir));
    }

    /**
     * {@code redis://127.0.0.1:PORT} of the primary ({@code rediss://} when secured; its host's
     * address under --isolate): clients write there, replicas follow it.
     */
    @Override
    public String url() {
        return (spec.broker().security() == null ? "redis" : "rediss") + "://" + spec.broker().placement().address(1)
                + ":" + ports.get(0);
    }

    @Override
    public LocalSecurity localSecurity() {
        return security;
    }

    /** How the suite's one-shot client reaches node {@code node}: with TLS and the login when secured. */
    public Resp.Endpoint endpoint(int node) {
        int port = port(node);
        LocalSecurity s = security;
        Resp.Endpoint endpoint = s == null ? Resp.Endpoint.plain(port)
                : new Resp.Endpoint(port, probeTls, s.login().user(), s.login().password());
        return endpoint.withHost(spec.broker().placement().address(node));
    }

    /** The port of node {@code node} (1 = the primary). */
    public int port(int node) {
        checkNode(node);
        return ports.get(node - 1);
    }

    /** redis_version from INFO server of the primary. */
    @Override
    public String version() {
        return version;
    }

    /**
     * Whether nodes started with {@code brokerProps} (--broker-prop) write their data to disk: the
     * AOF (appendonly yes) or snapshots (a save schedule), both off by default.
     */
    public static boolean persists(Map<String, String> brokerProps) {
        Map<String, String> args = new LinkedHashMap<>(DEFAULTS);
        // redis.conf's names are case-insensitive
        brokerProps.forEach((key, value) -> args.put(key.toLowerCase(java.util.Locale.ROOT), value));
        return "yes".equalsIgnoreCase(args.get("appendonly").strip()) || !args.get("save").isBlank();
    }

    /** The settings given to every node, ours and --broker-prop, without ports and paths. */
    public Map<String, String> effectiveServerArgs() {
        return effectiveArgs;
    }

    @Override
    public String toString() {
        return "redis with " + nodesText() + " at " + url();
    }

    /** The primary first, answering PING and INFO, then the replicas, each in sync. */
    @Override
    protected void bringUp(Readiness budget) {
        if (spec.broker().security() != null && security == null) {
            security = LocalSecurity.create(tempDir().resolve("tls"), spec.broker().security(),
                    spec.broker().placement());
            probeTls = security.pki().clientTls().sslContext();
        }
        ManagedProcess primary = launch(1);
        awaitNodeReady(1, budget);
        try {
            String info = Resp.call(endpoint(1), "INFO", "server");
            String reported = Resp.infoField(info, "redis_version");
            version = reported == null ? "unknown" : reported;
        } catch (IOException e) {
            throw new UserError(nodeName(1) + " answered PING but not INFO server; see " + logFile(1), e);
        }
        List<ManagedProcess> all = new ArrayList<>(List.of(primary));
        for (int node = 2; node <= spec.broker().nodes(); node++) {
            all.add(launch(node));
        }
        for (int node = 2; node <= spec.broker().nodes(); node++) {
            int n = node;
            budget.await(nodeName(n) + " (replica)", logFile(n), all, () -> inSync(n));
        }
        if (spec.broker().nodes() > 1) {
            String expected = Integer.toString(spec.broker().nodes() - 1);
            budget.await(nodeName(1) + " with " + expected + " replicas", logFile(1), all,
                    () -> expected.equals(Resp.infoField(Resp.call(endpoint(1), "INFO", "replication"), "connected_slaves")));
        }
    }

    /** The node answers PING; a replica is also in sync again, unless the primary is down. */
    @Override
    protected void awaitNodeReady(int node, Readiness budget) {
        List<ManagedProcess> watched = List.of(startedNodes().get(node - 1));
        budget.await(nodeName(node), logFile(node), watched, () -> "PONG".equals(Resp.call(endpoint(node), "PING")));
        if (node > 1 && exitDescription(1) == null) {
            budget.await(nodeName(node) + " (replica)", logFile(node), watched, () -> inSync(node));
        }
    }

    private boolean inSync(int replica) throws IOException {
        return "up".equals(Resp.infoField(Resp.call(endpoint(replica), "INFO", "replication"), "master_link_status"));
    }

    @Override
    public Path dataDir(int node) {
        return tempDir().resolve("node-" + checkNode(node));
    }

    @Override
    protected ManagedProcess startNode(int node) {
        Path dataDir = dataDir(node);
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dataDir, e);
        }
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        if (security == null) {
            command.addAll(List.of("--port", Integer.toString(port(node))));
        } else {
            // redis-server reads a config file given first, then the arguments after it
            command.add(secureConfig(node).toString());
            command.addAll(List.of("--port", "0", "--tls-port", Integer.toString(port(node))));
        }
        command.addAll(List.of(
                "--bind", spec.broker().placement().address(node),
                "--dir", dataDir.toString(),
                "--daemonize", "no",
                "--logfile", logFile(node).toString()));
        if (spec.broker().placement().isolated() && security == null) {
            // protected mode answers -DENIED to every address but loopback when there is no login; under
            // --isolate the clients and replicas are on other hosts, of a network made for this run only
            command.addAll(List.of("--protected-mode", "no"));
        }
        if (node > 1) {
            command.addAll(List.of("--replicaof", spec.broker().placement().address(1), Integer.toString(port(1))));
        }
        effectiveArgs.forEach((key, value) -> {
            command.add("--" + key);
            command.add(value);
        });
        // stdout and the server's own log share the file: both append, and a crash before the
        // log is open still leaves its reason there
        return new NativeCommand(nodeName(node), command, Map.of(), dataDir, logFile(node), tempDir())
                .withCpus(spec.broker().cpus()).withNetns(spec.broker().placement().namespace(node)).start();
    }

    /** The TLS files and the login of node {@code node}, in an owner-only file in the temp dir. */
    private Path secureConfig(int node) {
        Pki pki = security.pki();
        BrokerSecurity login = security.login();
        List<String> lines = new ArrayList<>(List.of(
                "tls-cert-file " + quoted(pki.serverCertFile().toString()),
                "tls-key-file " + quoted(pki.serverKeyFile().toString()),
                "tls-ca-cert-file " + quoted(pki.caFile().toString()),
                "tls-auth-clients " + (login.mutualTls() ? "yes" : "no"),
                "user default off",
                // the password's hash: only a replica's file must hold the password itself (masterauth)
                "user " + quoted(login.user()) + " on " + quoted("#" + sha256Hex(login.password().reveal()))
                        + " ~* &* +@all"));
        if (node > 1) {
            lines.addAll(List.of("tls-replication yes",
                    "masteruser " + quoted(login.user()),
                    "masterauth " + quoted(login.password().reveal())));
        }
        Path file = tempDir().resolve("redis-" + node + ".conf");
        try {
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }

    /** A redis.conf argument in double quotes, which keeps spaces and quotes as they are. */
    static String quoted(String value) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '"' -> b.append("\\\"");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }

    private static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private String nodeName(int node) {
        return "redis node " + node;
    }

    private Path logFile(int node) {
        return logDir().resolve("redis-" + node + ".log");
    }

    private static Map<String, String> defaults() {
        Map<String, String> args = new LinkedHashMap<>();
        args.put("save", "");
        args.put("appendonly", "no");
        return Collections.unmodifiableMap(args);
    }

}
