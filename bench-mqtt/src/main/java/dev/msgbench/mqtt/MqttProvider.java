package dev.msgbench.mqtt;

import java.util.List;

import dev.msgbench.core.system.SystemProvider;
import dev.msgbench.core.system.SystemTarget;

/** MQTT 3.1.1 on Mosquitto, RabbitMQ or nats-server (--mqtt-broker). */
public final class MqttProvider implements SystemProvider {

    @Override
    public List<SystemTarget> create() {
        return List.of(new MqttTarget());
    }

    /** After the seed systems and Pulsar, before the loopback. */
    @Override
    public int order() {
        return 70;
    }
}
