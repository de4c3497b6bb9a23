package dev.msgbench.mqtt.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.AbstractLocalBroker;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.broker.ManagedProcess;
import dev.msgbench.core.broker.MqttProbe;
import dev.msgbench.core.broker.NativeCommand;
import dev.msgbench.core.broker.Readiness;
import dev.msgbench.core.security.LocalSecurity;

/**
 * Debian's mosquitto as a child process, {@code mosquitto -c <conf>} with a config the suite
 * writes ({@link MosquittoConfig}), on a free loopback port, its data in a temp dir. Closing it,
 * an exit and Ctrl+C stop it and remove the temp dir; Debian's systemd service is never used.
 *
 * <p>One node: Mosquitto has no cluster. With {@code persistence true} it writes its in-memory
 * state (retained messages, persistent sessions and their queued messages) to mosquitto.db in the
 * node's data dir every {@code autosave_interval} seconds and on a clean stop, and reloads it on
 * start; a kill loses what came since the last save. With the default {@code persistence false} a
 * restart keeps nothing.
 *
 * <p>With {@code --secure} ({@link dev.msgbench.core.broker.BrokerSpec#security}) its one listener
 * speaks TLS with a throwaway certificate ({@code mqtts://}) and takes only the login, whose
 * password the config's password_file holds hashed.
 */
public final class LocalMosquitto extends AbstractLocalBroker {

    /** Mosquitto saves its database (when persistence is on) and exits within milliseconds of TERM. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration ABORT_GRACE = Duration.ofSeconds(2);
    private static final Pattern VERSION = Pattern.compile("mosquitto version (\\S+)");

    private final MosquittoBrokerSpec spec;
    private final Path binary;
    private final int port;
    private final MosquittoConfig config;
    private volatile String version = "unknown";
    private volatile LocalSecurity security;

    private LocalMosquitto(MosquittoBrokerSpec spec, Path binary, Path tempDir) {
        super(spec.broker(), tempDir, STOP_GRACE, ABORT_GRACE);
        spec.broker().placement().requireNodes(1);
        this.spec = spec;
        this.binary = binary;
        this.port = FreePorts.take(1).get(0);
        this.config = new MosquittoConfig(spec.broker().props());
    }

    /**
     * Starts the node and returns once it accepts an MQTT session.
     *
     * @throws UserError when mosquitto is missing, exits or is not ready in time
     */
    public static LocalMosquitto start(MosquittoBrokerSpec spec) {
        return start(spec, Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** Test seam: the temp dir is made in {@code tempParent}, so a test can see what is left. */
    static LocalMosquitto start(MosquittoBrokerSpec spec, Path tempParent) {
        Path binary = MosquittoBinary.locate(spec.binary(), System.getenv("PATH"));
        return startBroker("mosquitto", tempParent, spec.broker().startTimeout(),
                tempDir -> new LocalMosquitto(spec, binary, tempDir));
    }

    /** {@code mqtt://127.0.0.1:PORT} (its host's address under --isolate), {@code mqtts://} when secured. */
    @Override
    public String url() {
        return (spec.broker().security() == null ? "mqtt" : "mqtts") + "://" + spec.broker().placement().address(1)
                + ":" + port;
    }

    /** The certificates and login of a node started with --secure, else null. */
    @Override
    public LocalSecurity localSecurity() {
        return security;
    }

    public int port() {
        return port;
    }

    /** As the node's log gives it when it starts ("mosquitto version 2.0.11 running"). */
    @Override
    public String version() {
        return version;
    }

    /**
     * The settings of the config file the suite wrote, ours and --broker-prop, and where it keeps
     * mosquitto.db ({@code persistence_location}), without the listener and the other paths: what a
     * result records, since Mosquitto cannot be asked.
     */
    public Map<String, String> writtenSettings() {
        Map<String, String> written = new LinkedHashMap<>(config.settings());
        written.put("persistence_location", dataDir(1) + "/");
        return Collections.unmodifiableMap(written);
    }

    /** The config file of the node, rewritten on each start. */
    public Path configFile() {
        return tempDir().resolve("mosquitto-1.conf");
    }

    @Override
    public String toString() {
        return "mosquitto with " + nodesText() + " at " + url();
    }

    @Override
    protected void bringUp(Readiness budget) {
        if (spec.broker().security() != null) {
            security = LocalSecurity.create(tempDir().resolve("tls"), spec.broker().security(),
                    spec.broker().placement());
            MosquittoPasswordFile.write(security.login(), passwordFile());
        }
        launch(1);
        awaitNodeReady(1, budget);
        version = readVersion();
    }

    @Override
    protected void awaitNodeReady(int node, Readiness budget) {
        budget.await(nodeName(), logFile(), List.of(startedNodes().get(node - 1)),
                () -> MqttProbe.accepts(spec.broker().placement().address(1), port, clientSecurity()));
    }

    @Override
    public Path dataDir(int node) {
        return tempDir().resolve("node-" + checkNode(node));
    }

    @Override
    protected ManagedProcess startNode(int node) {
        Path dataDir = dataDir(node);
        Path conf = configFile();
        try {
            Files.createDirectories(dataDir);
            Files.write(conf, config.lines(spec.broker().placement().address(1), port, dataDir,
                    System.getProperty("user.name"), security, passwordFile()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + conf, e);
        }
        return new NativeCommand(nodeName(), List.of(binary.toString(), "-c", conf.toString()), Map.of(), dataDir,
                logFile(), tempDir()).withCpus(spec.broker().cpus()).withNetns(spec.broker().placement().namespace(1))
                .start();
    }

    /**
     * From {@code mosquitto -h}, whose first line is "mosquitto version 2.0.11": the node's log
     * would say it too, but mosquitto buffers its stdout, so the line may not be there yet.
     */
    private String readVersion() {
        try {
            Process p = new ProcessBuilder(binary.toString(), "-h").redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            Matcher m = VERSION.matcher(text);
            return m.find() ? m.group(1) : "unknown";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** In the owner-only folder of the certificates; hashed, and gone with the temp dir. */
    private Path passwordFile() {
        return tempDir().resolve("tls").resolve("mosquitto.passwd");
    }

    private String nodeName() {
        return "mosquitto node 1";
    }

    private Path logFile() {
        return logDir().resolve("mosquitto-1.log");
    }
}
