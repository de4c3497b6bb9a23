package dev.msgbench.pulsar.broker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BiFunction;

import dev.msgbench.core.broker.AbstractLocalBroker;
import dev.msgbench.core.broker.BrokerSpec;

/** What a standalone and a cluster share: the jars, the timed start, the version, the admin flag. */
abstract class AbstractLocalPulsar extends AbstractLocalBroker implements LocalPulsarBroker {

    /** A broker unloads its topics and a bookie flushes its journal on TERM; more is a hang. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final Duration ABORT_GRACE = Duration.ofSeconds(5);

    /** The JVMs' class path: Pulsar's own jars ({@link PulsarJvm#CLASS_PATH}), not this JVM's. */
    protected final List<Path> jars;
    private volatile Duration startTime;

    /** As many nodes as {@code broker} has, on its data disks. */
    AbstractLocalPulsar(BrokerSpec broker, List<Path> jars, Path tempDir) {
        super(broker, tempDir, STOP_GRACE, ABORT_GRACE);
        this.jars = jars;
    }

    /** {@code nodeCount} nodes, whatever {@code broker} says, on plain disks. */
    AbstractLocalPulsar(int nodeCount, BrokerSpec broker, List<Path> jars, Path tempDir) {
        super(nodeCount, tempDir, broker.logDir(), STOP_GRACE, ABORT_GRACE);
        this.jars = jars;
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
