package dev.msgbench.cli.systems;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.driver.MessagingSystem;

/** RabbitMQ over AMQP 0-9-1. */
public final class RabbitMqTarget implements SystemTarget {

    @Override
    public String name() {
        return "rabbitmq";
    }

    @Override
    public void validate(String acks, int localNodes) {
        throw new UserError("--system rabbitmq is not available in this build yet; use --system kafka");
    }

    @Override
    public LocalBroker startLocalBroker(BrokerRequest request) {
        throw new UserError("--system rabbitmq is not available in this build yet; use --system kafka");
    }

    @Override
    public MessagingSystem connect(ConnectRequest request) {
        throw new UserError("--system rabbitmq is not available in this build yet; use --system kafka");
    }
}
