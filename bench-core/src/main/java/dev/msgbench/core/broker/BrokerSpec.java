package dev.msgbench.core.broker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.net.Placement;
import dev.msgbench.core.security.BrokerSecurity;

/**
 * What every local broker is asked for, whatever its system: how many nodes, the user's settings,
 * where the logs go, the CPUs, the security and where the nodes run. Each system's spec holds
 * one of these beside what only it has (a JVM heap, JetStream, an install folder), and checks
 * the keys of {@code props} against its own configuration; the checks here are those every
 * system makes.
 *
 * @param nodes        how many nodes (--brokers), at least 1; what a node is (a cluster member, a
 *                     replica) is the system's
 * @param props        the user's settings from --broker-prop, applied after ours so that they
 *                     win; what a key means, and which keys msgbench keeps to itself, is the
 *                     system's spec's to say
 * @param logDir       where each node's log goes; null: inside the broker's temp dir, removed
 *                     with it
 * @param startTimeout how long starting and the ready checks may take together; null: the
 *                     system's default, since how long a start takes differs by system (a JVM
 *                     cluster that formats its storage, a single native server)
 * @param cpus         the CPUs every broker process runs on (--broker-cpus); null: those of this
 *                     JVM
 * @param security     TLS and the login the broker demands (--secure); null: an open broker
 * @param placement    where each node runs and listens (--isolate); null: loopback, in this JVM's
 *                     namespace
 * @param dataDisks    whether each node's data dir is a forgetful disk
 *                     ({@link dev.msgbench.core.disk.ForgetfulDisk}), mounted before the node's first
 *                     start, and with which page cache, so that a power cut ({@link LocalBroker#powerCut})
 *                     can take from it what the node never synced, and a fault can make it slow or full;
 *                     for runs with a fault of the disk. Null: {@link DataDisks#PLAIN}
 */
public record BrokerSpec(int nodes, Map<String, String> props, Path logDir, Duration startTimeout, CpuList cpus,
                         BrokerSecurity security, Placement placement, DataDisks dataDisks) {

    public BrokerSpec {
        if (nodes < 1) {
            throw new UserError(Phrase.of("%s must be at least 1, got %d", Setting.BROKERS, nodes));
        }
        props = props == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(props));
        if (startTimeout != null && (startTimeout.isNegative() || startTimeout.isZero())) {
            throw new UserError("the broker start timeout must be positive, got " + startTimeout);
        }
        placement = placement == null ? Placement.LOOPBACK : placement;
        dataDisks = dataDisks == null ? DataDisks.PLAIN : dataDisks;
    }

    /** On plain data dirs. */
    public BrokerSpec(int nodes, Map<String, String> props, Path logDir, Duration startTimeout, CpuList cpus,
                      BrokerSecurity security, Placement placement) {
        this(nodes, props, logDir, startTimeout, cpus, security, placement, DataDisks.PLAIN);
    }

    /** One node, no settings, logs in the temp dir, the system's start timeout, open, on loopback. */
    public static BrokerSpec defaults() {
        return new BrokerSpec(1, Map.of(), null, null, null, null, null);
    }

    public BrokerSpec withNodes(int nodes) {
        return new BrokerSpec(nodes, props, logDir, startTimeout, cpus, security, placement, dataDisks);
    }

    public BrokerSpec withProps(Map<String, String> props) {
        return new BrokerSpec(nodes, props, logDir, startTimeout, cpus, security, placement, dataDisks);
    }

    public BrokerSpec withLogDir(Path logDir) {
        return new BrokerSpec(nodes, props, logDir, startTimeout, cpus, security, placement, dataDisks);
    }

    /** @param startTimeout how long the start may take, or null for the system's default */
    public BrokerSpec withStartTimeout(Duration startTimeout) {
        return new BrokerSpec(nodes, props, logDir, startTimeout, cpus, security, placement, dataDisks);
    }

    /** @param cpus the CPUs to run on, or null for this JVM's */
    public BrokerSpec withCpus(CpuList cpus) {
        return new BrokerSpec(nodes, props, logDir, startTimeout, cpus, security, placement, dataDisks);
    }

    /** @param security TLS and the login the broker demands, or null for an open broker */
    public BrokerSpec withSecurity(BrokerSecurity security) {
        return new BrokerSpec(nodes, props, logDir, startTimeout, cpus, security, placement, dataDisks);
    }

    /** @param placement where each node runs (--isolate), or null for loopback in this JVM's namespace */
    public BrokerSpec withPlacement(Placement placement) {
        return new BrokerSpec(nodes, props, logDir, startTimeout, cpus, security, placement, dataDisks);
    }

    /**
     * @param forgetfulDisks whether each node's data dir is a forgetful disk (behind the writeback
     *                       cache), for power cuts
     */
    public BrokerSpec withForgetfulDisks(boolean forgetfulDisks) {
        return withDataDisks(forgetfulDisks ? DataDisks.FORGETFUL : DataDisks.PLAIN);
    }

    /** @param dataDisks what the nodes keep their data on, null for plain data dirs */
    public BrokerSpec withDataDisks(DataDisks dataDisks) {
        return new BrokerSpec(nodes, props, logDir, startTimeout, cpus, security, placement, dataDisks);
    }

    /** Whether each node's data dir is a forgetful disk, whatever its page cache. */
    public boolean forgetfulDisks() {
        return dataDisks.forgetful();
    }

    /**
     * This spec with the system's own start timeout when none was asked for: a system's spec
     * applies it, so that its broker always has one.
     */
    public BrokerSpec withDefaultStartTimeout(Duration systemDefault) {
        return startTimeout != null ? this : withStartTimeout(systemDefault);
    }
}
