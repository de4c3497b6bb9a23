package dev.msgbench.pulsar.broker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import dev.msgbench.core.broker.AbstractLocalBroker;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.LocalSecurity;

/**
 * What a standalone and a cluster share: the jars, the timed start, the version, the admin flag,
 * and with --secure the certificates and logins ({@link SecuredPulsar}) and the TLS URLs.
 */
abstract class AbstractLocalPulsar extends AbstractLocalBroker implements LocalPulsarBroker {

    /** A broker unloads its topics and a bookie flushes its journal on TERM; more is a hang. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final Duration ABORT_GRACE = Duration.ofSeconds(5);

    /** The JVMs' class path: Pulsar's own jars ({@link PulsarJvm#CLASS_PATH}), not this JVM's. */
    protected final List<Path> jars;
    protected final PulsarBrokerSpec spec;
    private volatile Duration startTime;
    /** Made by {@link #secureIfAsked}; null for an open Pulsar. */
    private volatile SecuredPulsar secured;

    /** As many nodes as {@code spec}'s broker has, on its data disks. */
    AbstractLocalPulsar(PulsarBrokerSpec spec, List<Path> jars, Path tempDir) {
        super(spec.broker(), tempDir, STOP_GRACE, ABORT_GRACE);
        this.jars = jars;
        this.spec = spec;
    }

    /** {@code nodeCount} nodes, whatever {@code spec}'s broker says, on the data disks it asks for. */
    AbstractLocalPulsar(int nodeCount, PulsarBrokerSpec spec, List<Path> jars, Path tempDir) {
        super(nodeCount, tempDir, spec.broker().logDir(), STOP_GRACE, ABORT_GRACE, spec.broker().dataDisks());
        this.jars = jars;
        this.spec = spec;
    }

    /** Whether the spec asks for TLS and a login (--secure). */
    protected final boolean secured() {
        return spec.broker().security() != null;
    }

    /**
     * With --secure, makes the certificates, the htpasswd file and the token key in the temp dir's
     * {@code tls} folder; before any node's conf is written, which names them.
     */
    protected final void secureIfAsked() {
        if (secured()) {
            secured = SecuredPulsar.create(tempDir().resolve("tls"), spec.broker().security(),
                    spec.broker().placement());
        }
    }

    /** One broker's TLS ports and login with --secure ({@link SecuredBrokerConf#settings}); empty for an open one. */
    protected final Map<String, String> securedSettings(int brokerPort, int webPort) {
        SecuredPulsar secure = secured;
        return secure == null ? Map.of() : secure.brokerSettings(brokerPort, webPort);
    }

    /** The settings --secure adds to every broker's, without ports and paths, as the result records them. */
    protected final Map<String, String> recordedSecurity() {
        return secured() ? SecuredBrokerConf.recorded(spec.broker().security().mutualTls()) : Map.of();
    }

    /** The health check's HTTP client: with the login and the CA once secured. */
    protected final PulsarWebAccess web() {
        SecuredPulsar secure = secured;
        return secure == null ? PulsarWebAccess.OPEN : secure.web();
    }

    /** {@code pulsar+ssl} when secured, else {@code pulsar}: the binary protocol's scheme. */
    protected final String serviceScheme() {
        return secured() ? "pulsar+ssl" : "pulsar";
    }

    /** {@code https} when secured, else {@code http}: the web service's scheme. */
    protected final String webScheme() {
        return secured() ? "https" : "http";
    }

    /** The certificates and login of a Pulsar started with --secure, else null. */
    @Override
    public final LocalSecurity localSecurity() {
        SecuredPulsar secure = secured;
        return secure == null ? null : secure.local();
    }

    /**
     * TLS with the CA, and the login the spec asks for: the user and password, or the token
     * (--pulsar-auth token).
     */
    @Override
    public final ClientSecurity clientSecurity() {
        SecuredPulsar secure = secured;
        return secure == null ? ClientSecurity.NONE : secure.client(spec.login());
    }

    /** The file that holds a token this Pulsar takes, for a client of its own; null unless secured. */
    public final Path tokenFile() {
        SecuredPulsar secure = secured;
        return secure == null ? null : secure.tokenFile();
    }

    /**
     * Starts one and records how long it took, from the launch of its first JVM.
     *
     * @param create its constructor, given the jars and the temp dir
     */
    static <P extends AbstractLocalPulsar> P timedStart(PulsarBrokerSpec spec, Path tempParent,
                                                       BiFunction<List<Path>, Path, P> create) {
        // before the start's budget: on a machine that lacks the jars, their download is not the broker's start
        List<Path> jars = PulsarJvm.CLASS_PATH.jars();
        long begin = System.nanoTime();
        P pulsar = startBroker("pulsar", tempParent, spec.broker().startTimeout(),
                tempDir -> create.apply(jars, tempDir));
        ((AbstractLocalPulsar) pulsar).startTime = Duration.ofNanos(System.nanoTime() - begin);
        return pulsar;
    }

    /** The admin API is on a port of its own, which a client given only the service URL cannot guess. */
    @Override
    public final List<String> clientFlags() {
        return List.of("--pulsar-admin-url", adminUrl());
    }

    @Override
    public final Duration startTime() {
        return startTime;
    }

    /** The version of the Pulsar jars the JVMs run. */
    @Override
    public final String version() {
        return PulsarJvm.CLASS_PATH.version("pulsar-broker");
    }
}
