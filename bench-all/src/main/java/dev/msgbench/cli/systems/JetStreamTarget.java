package dev.msgbench.cli.systems;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.MessagingSystem;

/** NATS JetStream: persistent streams, the successor of NATS Streaming. */
public final class JetStreamTarget implements SystemTarget {

    @Override
    public String name() {
        return "jetstream";
    }

    @Override
    public void validate(String acks, int localNodes) {
        throw new UserError("--system jetstream is not available in this build yet; use --system kafka");
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        throw new UserError("--system jetstream is not available in this build yet; use --system kafka");
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        throw new UserError("--system jetstream is not available in this build yet; use --system kafka");
    }
}
