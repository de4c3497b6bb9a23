package dev.msgbench.redis;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.system.NativeTool;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.redis.broker.LocalRedis;
import dev.msgbench.redis.broker.RedisBrokerSpec;
import dev.msgbench.redis.nativetool.RedisBenchmark;
import picocli.CommandLine.Option;

/**
 * Redis Streams: XADD with MAXLEN, XREADGROUP with XACK, a stream key per producer stream;
 * --redis-client (Redis pub/sub's flag) picks the producers' client.
 */
public final class RedisStreamsTarget implements SystemTarget {

    /** Holds --redis-client, which both Redis systems read. */
    private final RedisTarget pubSub;

    RedisStreamsTarget(RedisTarget pubSub) {
        this.pubSub = pubSub;
    }

    @Option(names = "--maxlen", paramLabel = "N", defaultValue = "100000",
            description = "Redis Streams: XADD ... MAXLEN ~ N, the entries each stream keeps, read or not; an entry "
                    + "trimmed before it was read counts as lost (default: ${DEFAULT-VALUE}).")
    long maxlen;

    @Option(names = "--xread-count", paramLabel = "N", defaultValue = "100",
            description = "Redis Streams: XREADGROUP COUNT, the most entries one read returns; each read is "
                    + "acknowledged with one XACK per stream key (default: ${DEFAULT-VALUE}).")
    int readCount;

    @Override
    public boolean retainsMessages() {
        return true;
    }

    @Override
    public String name() {
        return RedisStreamsSystem.NAME;
    }

    /** A stream is a key: on disk once the AOF or snapshots are on, which the local broker turns off by default. */
    @Override
    public String diskFaultRefused(int localNodes, Map<String, String> brokerProps) {
        return LocalRedis.persists(brokerProps) ? null : "the local redis-server runs without persistence (save '' and "
                + "appendonly no) unless asked; add --broker-prop appendonly=yes (appendfsync everysec, Redis's default, "
                + "or --broker-prop appendfsync=always)";
    }

    @Override
    public List<String> borrowedFlags() {
        return List.of("--redis-client");
    }

    @Override
    public Optional<NativeTool> nativeTool() {
        return Optional.of(RedisBenchmark.streams());
    }

    @Override
    public void validate(Acks acks, int localNodes) {
        if (RedisAcks.of(acks) == RedisAcks.REPLICAS && localNodes == 1) {
            throw new UserError("--acks all waits for every replica (WAIT), and a local Redis of 1 node has none; "
                    + "add --brokers 2 or more, or use --acks 1");
        }
        settings();
    }

    @Override
    public boolean securable() {
        return true;
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        return LocalRedis.start(RedisBrokerSpec.of(request.broker()));
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        return new RedisStreamsSystem(RedisSettings.defaults(request.url()).withAcks(RedisAcks.of(request.acks()))
                .withSecurity(request.security())
                .withClient(pubSub.client), settings());
    }

    private StreamSettings settings() {
        return new StreamSettings(maxlen, readCount, StreamSettings.DEFAULT_BLOCK);
    }
}
