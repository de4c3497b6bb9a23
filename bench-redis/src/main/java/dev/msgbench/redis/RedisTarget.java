package dev.msgbench.redis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.broker.NodeExit;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.system.NativeTool;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.redis.broker.LocalRedis;
import dev.msgbench.redis.broker.RedisBrokerSpec;
import dev.msgbench.redis.nativetool.RedisBenchmark;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * Redis pub/sub: PUBLISH and SUBSCRIBE, a channel per producer stream; --redis-client picks the
 * client (Redis Streams reads it from here too).
 *
 * <p>The local broker takes strings up to 512 MB (proto-max-bulk-len) as it is; for messages over
 * 256 KiB it lets a subscriber fall further behind before disconnecting it (see
 * {@link RedisPubSubSystem#localBrokerArgs}), and --broker-prop still wins.
 */
public final class RedisTarget implements SystemTarget {

    @Option(names = "--redis-client", paramLabel = "CLIENT", defaultValue = "lettuce", converter = ClientConverter.class,
            description = "Redis pub/sub and Streams: what producers (and pub/sub subscribers) use: lettuce (a command "
                    + "object and future per command, its I/O thread between us and the socket), or direct (the suite "
                    + "speaks RESP itself: the producer writes PUBLISH or XADD from its own thread and a reader matches "
                    + "the replies in order, a pub/sub subscriber hands each message to the core from its read buffer; "
                    + "Streams consumers stay lettuce; a login, but no TLS) (default: ${DEFAULT-VALUE}).")
    RedisClientKind client;

    @Override
    public String name() {
        return RedisPubSubSystem.NAME;
    }

    @Override
    public Optional<NativeTool> nativeTool() {
        return Optional.of(RedisBenchmark.pubSub());
    }

    /** PUBLISH changes no key: Redis writes it to no AOF and no snapshot, whatever the persistence. */
    @Override
    public String diskFaultRefused(int localNodes, Map<String, String> brokerProps) {
        return "a pub/sub message is never written to the AOF or a snapshot, whatever the persistence; use --system "
                + "redis-streams with --broker-prop appendonly=yes";
    }

    @Override
    public void validate(Acks acks, int localNodes) {
        if (RedisAcks.of(acks) == RedisAcks.REPLICAS) {
            throw new UserError(RedisPubSubSystem.noReplicaAcks());
        }
    }

    @Override
    public boolean securable() {
        return true;
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        Map<String, String> args = new LinkedHashMap<>(RedisPubSubSystem.localBrokerArgs(request.messageSizeBytes()));
        args.putAll(request.broker().props());
        return LocalRedis.start(RedisBrokerSpec.of(request.broker().withProps(args)));
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        // a subscriber cut off names the local server's death rather than guessing a cause
        return new RedisPubSubSystem(RedisSettings.defaults(request.url()).withAcks(RedisAcks.of(request.acks()))
                .withSecurity(request.security())
                .withClient(client).withServerExit(NodeExit.of(request.broker(), 1)));
    }

    static final class ClientConverter implements ITypeConverter<RedisClientKind> {
        @Override
        public RedisClientKind convert(String value) {
            try {
                return RedisClientKind.of(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
