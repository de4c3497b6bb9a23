package dev.msgbench.core.system;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.fault.FaultKind;
import dev.msgbench.core.fault.NodeChoice;
import dev.msgbench.core.net.Placement;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.ClientSecurity;

/**
 * How the command line reaches one system: it starts the system's local broker and builds its
 * adapter from the flags. Each implementation is also a picocli mixin holding the flags that
 * only its system understands; giving one of them with another --system is an error.
 */
public interface SystemTarget {

    /** The value of --system. */
    String name();

    /**
     * Checks this system's flags before anything is started, so that a bad flag costs no broker
     * start; throws {@link dev.msgbench.core.UserError} naming the flag.
     *
     * @param acks       --acks, or null for the system's default
     * @param localNodes nodes of the local broker about to start, or 0 with --url
     */
    void validate(Acks acks, int localNodes);

    /**
     * Checks the properties passed through to the system (its client properties, and
     * --broker-prop for a local broker) against the system's own definitions, before anything
     * starts; throws {@link dev.msgbench.core.UserError} naming the flag, key and value for one
     * the system would refuse.
     *
     * @return a warning for each key the system does not know, which it would ignore
     */
    default List<String> checkProps(Map<String, String> brokerProps) {
        return List.of();
    }

    /**
     * Why this system's flags, as given, cannot run with --pattern echo (which wraps the system in
     * a round trip of its own), or null when they can; asked before anything starts.
     */
    default String echoRefused() {
        return null;
    }

    /**
     * Flags of another system's mixin that this one reads too (picocli takes each name once per
     * command): --redis-client is Redis pub/sub's and Redis Streams'.
     */
    default List<String> borrowedFlags() {
        return List.of();
    }

    /**
     * Whether the system keeps messages for consumers that subscribe later or are held back, as its
     * {@link MessagingSystem#retainsMessages} says once built: known here so that a run that needs it
     * (--backlog, --consume-after-produce) is refused before a broker starts, and by --dry-run.
     */
    default boolean retainsMessages() {
        return false;
    }

    /**
     * The kinds of --fault this system's local broker can take; asked before anything starts. A
     * system with a broker takes every kind by default (its launcher's nodes are processes the
     * suite started), one inside this JVM only exec, a command of the user's own.
     */
    default Set<FaultKind> faults() {
        return needsBroker() ? EnumSet.allOf(FaultKind.class) : EnumSet.of(FaultKind.EXEC);
    }

    /**
     * Why a fault on a node's disk ({@link FaultKind#onDisk}: power-loss, slow-disk, disk-full) would
     * find none of this system's messages there, with its flags, {@code localNodes} and
     * {@code brokerProps} as given;
     * null when its local broker keeps them on disk. Asked before anything starts; the refusal reads
     * "SYSTEM keeps no message there: REASON", so the reason says why and what to give instead, in
     * the system's own flags ("a transient queue ... holds its messages in memory; use --queue-type
     * durable or quorum").
     *
     * <p>A system must say so itself: by default none does, since a disk fault on a system whose
     * data dir holds no messages measures nothing but the restart.
     */
    default String diskFaultRefused(int localNodes, Map<String, String> brokerProps) {
        return "its module does not say that its local broker keeps them on disk";
    }

    /**
     * {@link #diskFaultRefused(int, Map)} for a fault on {@code node} as given (before a
     * {@link NodeChoice.Rule#NAMED} node is numbered): for a system whose nodes are not alike, some
     * keeping the messages and some not (a Pulsar cluster's bookies and brokers).
     */
    default String diskFaultRefused(int localNodes, Map<String, String> brokerProps, NodeChoice node) {
        return diskFaultRefused(localNodes, brokerProps);
    }

    /**
     * The number (as in node=N, from 1) of the node a --fault names as {@code role-index}
     * (Pulsar's node=bookie-2), on a local broker of {@code localNodes} (--brokers). Asked before
     * anything starts; the number may be above {@code localNodes} when the system starts nodes
     * --brokers does not count (a Pulsar cluster's bookies).
     *
     * @throws UserError one line, the reason only ("a Pulsar standalone ... use node=1"): the caller
     *                   names the flag and the value; by default every name, since most systems
     *                   number their nodes only
     */
    default int namedNode(String role, int index, int localNodes) {
        throw new UserError(name() + " numbers its nodes only: node=N, leader or any-follower");
    }

    /** False for a system that runs inside this JVM: no broker is started and --url means nothing. */
    default boolean needsBroker() {
        return true;
    }

    /**
     * Whether this system reaches secured brokers: TLS and a login (--secure, --ca, --user ...).
     * Until it does, asking for them is refused before anything starts.
     */
    default boolean securable() {
        return false;
    }

    /**
     * Why --secure cannot secure this system's local broker of {@code localNodes} nodes, or null when
     * it can; asked before anything starts. The refusal reads "--secure: REASON".
     */
    default String secureRefused(int localNodes) {
        return null;
    }

    /**
     * Why --isolate cannot put this system's local broker of {@code localNodes} nodes on hosts of its
     * own, or null when it can; asked before any host is made. The refusal reads "--isolate: REASON".
     */
    default String isolateRefused(int localNodes) {
        return null;
    }

    /**
     * The system's own load generator, which scripts/compare-native measures ours against (through
     * {@code native-tool}), or empty when the system has none to compare with.
     */
    default Optional<NativeTool> nativeTool() {
        return Optional.empty();
    }

    /** Starts a local broker (registered for cleanup by its launcher). */
    LocalBroker startLocalBroker(BrokerRequest request);

    /** Builds the adapter; the connection is checked when the engine prepares the run. */
    MessagingSystem connect(ConnectRequest request);

    /**
     * @param broker           the broker the command line asks for; with no start timeout (the
     *                         flags set none), the system's spec picks its own
     * @param messageSizeBytes the largest message the run sends, for the size limits a system
     *                         raises so that it fits
     */
    record BrokerRequest(BrokerSpec broker, long messageSizeBytes) {

        public BrokerRequest {
            Objects.requireNonNull(broker, "broker");
        }

        /**
         * As the flags give it, with the system's default start timeout.
         *
         * @param logDir    where the broker's logs go (inside the results folder)
         * @param cpus      the CPUs every broker process runs on (--broker-cpus), or null for this JVM's
         * @param security  TLS and the login the broker demands (--secure), or null for an open broker
         * @param placement where the nodes run: loopback, or the hosts of an isolated run (--isolate)
         */
        public BrokerRequest(int nodes, Map<String, String> brokerProps, Path logDir, long messageSizeBytes,
                             CpuList cpus, BrokerSecurity security, Placement placement) {
            this(new BrokerSpec(nodes, brokerProps, logDir, null, cpus, security, placement), messageSizeBytes);
        }
    }

    /**
     * @param url    where the broker is (a local one's URL when the suite started it)
     * @param acks   --acks, or null for the system's default
     * @param broker the local broker, or null when measuring one given with --url
     * @param security how clients reach the broker: a secured local broker's own
     *                 ({@link LocalBroker#clientSecurity}), or --ca, --user ... for one given with --url
     */
    record ConnectRequest(String url, Acks acks, LocalBroker broker, long messageSizeBytes, ClientSecurity security) {

        public ConnectRequest(String url, Acks acks, LocalBroker broker, long messageSizeBytes) {
            this(url, acks, broker, messageSizeBytes, broker == null ? ClientSecurity.NONE : broker.clientSecurity());
        }
    }
}
