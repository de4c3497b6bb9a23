package dev.msgbench.cli.systems;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.redis.RedisAcks;
import dev.msgbench.redis.RedisPubSubSystem;
import dev.msgbench.redis.RedisSettings;
import dev.msgbench.redis.broker.LocalRedis;
import dev.msgbench.redis.broker.RedisBrokerSpec;

/**
 * Redis pub/sub: PUBLISH and SUBSCRIBE, a channel per producer stream. No flags of its own.
 *
 * <p>The local broker needs no raised size limit: Redis takes strings up to 512 MB
 * (proto-max-bulk-len) and disconnects a subscriber only past 32 MB waiting for it.
 */
public final class RedisTarget implements SystemTarget {

    @Override
    public String name() {
        return RedisPubSubSystem.NAME;
    }

    @Override
    public void validate(String acks, int localNodes) {
        if (RedisAcks.parse(acks, name()) == RedisAcks.REPLICAS) {
            throw new UserError(RedisPubSubSystem.noReplicaAcks());
        }
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        return LocalRedis.start(RedisBrokerSpec.defaults()
                .withNodes(request.nodes())
                .withServerArgs(request.brokerProps())
                .withLogDir(request.logDir()));
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        return new RedisPubSubSystem(RedisSettings.defaults(request.url()).withAcks(RedisAcks.parse(request.acks(), name())));
    }
}
