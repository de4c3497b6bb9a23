package dev.msgbench.rabbit;

import java.util.List;

import dev.msgbench.core.system.SystemProvider;
import dev.msgbench.core.system.SystemTarget;

/** RabbitMQ over AMQP 0-9-1: the {@code rabbitmq} system. */
public final class RabbitMqProvider implements SystemProvider {

    @Override
    public List<SystemTarget> create() {
        return List.of(new RabbitMqTarget());
    }

    @Override
    public int order() {
        return 30;
    }
}
