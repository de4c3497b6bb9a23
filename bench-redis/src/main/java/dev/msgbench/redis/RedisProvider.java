package dev.msgbench.redis;

import java.util.List;

import dev.msgbench.core.system.SystemProvider;
import dev.msgbench.core.system.SystemTarget;

/** Redis pub/sub and Redis Streams, which share redis-server and --redis-client. */
public final class RedisProvider implements SystemProvider {

    @Override
    public List<SystemTarget> create() {
        RedisTarget redis = new RedisTarget();
        return List.of(redis, new RedisStreamsTarget(redis));
    }

    @Override
    public int order() {
        return 40;
    }
}
