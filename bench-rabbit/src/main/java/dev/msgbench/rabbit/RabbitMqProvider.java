package dev.msgbench.rabbit;

import java.util.List;

import dev.msgbench.core.system.SystemProvider;
import dev.msgbench.core.system.SystemTarget;

/**
 * RabbitMQ over AMQP 0-9-1 (the {@code rabbitmq} system) and RabbitMQ Streams over the stream
 * protocol ({@code rabbitmq-streams}), which share rabbitmq-server and --max-unconfirmed.
 */
public final class RabbitMqProvider implements SystemProvider {

    @Override
    public List<SystemTarget> create() {
        RabbitMqTarget amqp = new RabbitMqTarget();
        return List.of(amqp, new RabbitStreamsTarget(amqp));
    }

    @Override
    public int order() {
        return 30;
    }
}
