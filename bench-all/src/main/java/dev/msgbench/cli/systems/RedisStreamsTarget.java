package dev.msgbench.cli.systems;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.MessagingSystem;

/** Redis Streams: XADD with MAXLEN, XREADGROUP with XACK. */
public final class RedisStreamsTarget implements SystemTarget {

    @Override
    public String name() {
        return "redis-streams";
    }

    @Override
    public void validate(String acks, int localNodes) {
        throw new UserError("--system redis-streams is not available in this build yet; use --system kafka");
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        throw new UserError("--system redis-streams is not available in this build yet; use --system kafka");
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        throw new UserError("--system redis-streams is not available in this build yet; use --system kafka");
    }
}
