package dev.msgbench.nats;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerBinary;
import dev.msgbench.nats.broker.NatsServerSpec;
import dev.msgbench.nats.broker.ServerMonitor;
import picocli.CommandLine.Option;

/**
 * NATS JetStream, the successor of NATS Streaming: flags and local nats-server with JetStream.
 *
 * <p>--acks: 0 = core publish into the stream's subject, no PubAck awaited; 1 = PubAck awaited
 * (the default); all = PubAck awaited with a replicated stream, where JetStream sends it once a
 * RAFT quorum (2 of 3) stored the message: a majority, not every replica.
 */
public final class JetStreamTarget implements SystemTarget {

    /** Holds the NATS-only login flags (--nats-token-file, --nats-nkey, --nats-creds), which both read. */
    private final NatsTarget core;

    JetStreamTarget(NatsTarget core) {
        this.core = core;
    }

    /** JetStream's limit on a stream's replicas. */
    private static final int MAX_REPLICAS = 5;

    @Option(names = "--js-storage", paramLabel = "STORAGE", defaultValue = "file",
            description = "JetStream: the stream's storage, file (JetStream's default) or memory (default: ${DEFAULT-VALUE}).")
    JsStorage storage;

    @Option(names = "--js-sync", paramLabel = "SYNC", defaultValue = "default",
            description = "JetStream: default (the server's sync_interval, 2 min on current servers) or always "
                    + "(fsync every write before the PubAck; local nats-server 2.10+ only) (default: ${DEFAULT-VALUE}).")
    JsSync sync;

    @Option(names = "--js-replicas", paramLabel = "N",
            description = "JetStream: replicas of the run's stream (default: the number of local servers, 1 with --url).")
    Integer replicas;

    @Option(names = "--js-consumer", paramLabel = "MODE", defaultValue = "push",
            description = "JetStream: push or pull consumers, acking each message explicitly (default: ${DEFAULT-VALUE}).")
    JsConsumerMode consumer;

    @Option(names = "--js-max-pending", paramLabel = "N",
            description = "JetStream: PubAcks a producer awaits at once; when reached publish blocks, measured as "
                    + "send delay (default: " + JetStreamSettings.DEFAULT_MAX_PENDING + ").")
    Integer maxPending;

    @Override
    public boolean retainsMessages() {
        return true;
    }

    @Override
    public String name() {
        return "jetstream";
    }

    /** A file stream lives in the node's store_dir; a memory stream nowhere on disk. */
    @Override
    public String diskFaultRefused(int localNodes, Map<String, String> brokerProps) {
        return storage == JsStorage.MEMORY ? "a memory stream (--js-storage memory) is never written to disk; use "
                + "--js-storage file" : null;
    }

    @Override
    public List<String> borrowedFlags() {
        return List.of("--nats-token-file", "--nats-nkey", "--nats-creds");
    }

    @Override
    public boolean securable() {
        return true;
    }

    @Override
    public void validate(Acks acks, int localNodes) {
        core.checkLoginFlags(localNodes);
        int r = replicas(localNodes);
        if (r < 1 || r > MAX_REPLICAS) {
            throw new UserError("--js-replicas must be 1 to " + MAX_REPLICAS + " (JetStream's limit), got " + r);
        }
        if (localNodes > 0 && r > localNodes) {
            throw new UserError("--js-replicas " + r + " needs as many servers; the local cluster would have "
                    + localNodes + " (add --brokers " + r + ")");
        }
        JetStreamSettings.checkAcks(acks, r, localNodes > 0);
        if (maxPending != null && maxPending < 1) {
            throw new UserError("--js-max-pending must be at least 1, got " + maxPending);
        }
        if (maxPending != null && acks == Acks.NONE) {
            throw new UserError("--js-max-pending limits the PubAcks awaited, and --acks 0 awaits none; drop one of them");
        }
        if (sync == JsSync.ALWAYS && localNodes == 0) {
            throw new UserError("--js-sync always configures the local server; a server given with --url keeps its own "
                    + "setting (jetstream { sync_interval: always } in its config)");
        }
        if (sync == JsSync.ALWAYS && storage == JsStorage.MEMORY) {
            throw new UserError("--js-sync always applies to --js-storage file; memory storage is never written to disk");
        }
    }

    private int replicas(int localNodes) {
        return replicas != null ? replicas : Math.max(1, localNodes);
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        Map<String, String> props = new LinkedHashMap<>(request.broker().props());
        NatsServerBinary binary = NatsServerBinary.find();
        if (sync == JsSync.ALWAYS) {
            if (props.containsKey(NatsServerSpec.SYNC_PROP)) {
                throw new UserError("--js-sync always and --broker-prop " + NatsServerSpec.SYNC_PROP
                        + " both set the sync interval; give one of them");
            }
            NatsServerSpec.requireSyncSupport(binary, "--js-sync always");
            props.put(NatsServerSpec.SYNC_PROP, "always");
        }
        // in one step: a spec without JetStream, as of() makes, refuses the jetstream.* props
        return LocalNatsServer.start(new NatsServerSpec(request.broker().withProps(props), true,
                NatsServerSpec.maxPayloadFor(request.messageSizeBytes()), binary));
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        // the local server's /jsz tells the sync setting in effect; a server at --url does not show it
        ServerMonitor localMonitor = request.broker() instanceof LocalNatsServer local ? local.monitor(1) : null;
        return new JetStreamSystem(JetStreamSettings.defaults(request.url())
                .withAcks(request.acks())
                .withStorage(storage)
                .withSync(sync)
                .withReplicas(replicas(request.broker() == null ? 0 : request.broker().nodeCount()))
                .withConsumer(consumer)
                .withMaxPending(maxPending == null ? JetStreamSettings.DEFAULT_MAX_PENDING : maxPending)
                .withAuth(core.auth(request.security()))
                .withConnectTimeout(NatsTarget.connectTimeout(request))
                .withStartedBySuite(request.broker() != null),
                localMonitor);
    }
}
