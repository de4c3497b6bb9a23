package dev.msgbench.cli.systems;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.MessagingSystem;

/** Core NATS publish/subscribe and request/reply. */
public final class NatsTarget implements SystemTarget {

    @Override
    public String name() {
        return "nats";
    }

    @Override
    public void validate(String acks, int localNodes) {
        throw new UserError("--system nats is not available in this build yet; use --system kafka");
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        throw new UserError("--system nats is not available in this build yet; use --system kafka");
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        throw new UserError("--system nats is not available in this build yet; use --system kafka");
    }
}
