package dev.msgbench.nats;

import java.util.List;

import dev.msgbench.core.system.SystemProvider;
import dev.msgbench.core.system.SystemTarget;

/** Core NATS and JetStream, which share nats-server and the NATS-only login flags. */
public final class NatsProvider implements SystemProvider {

    @Override
    public List<SystemTarget> create() {
        NatsTarget nats = new NatsTarget();
        return List.of(nats, new JetStreamTarget(nats));
    }

    @Override
    public int order() {
        return 20;
    }
}
