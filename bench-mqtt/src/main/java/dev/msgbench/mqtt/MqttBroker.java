package dev.msgbench.mqtt;

import java.util.Locale;

/** --mqtt-broker: which MQTT broker the suite starts, each through its own system's launcher. */
public enum MqttBroker {

    /** Debian's mosquitto, with a mosquitto.conf the suite writes (bench-mqtt's own launcher). */
    MOSQUITTO,
    /** RabbitMQ with its rabbitmq_mqtt plugin, on bench-rabbit's launcher. */
    RABBITMQ,
    /** nats-server's MQTT listener, on JetStream, on bench-nats' launcher. */
    NATS;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException naming the values */
    public static MqttBroker of(String text) {
        for (MqttBroker b : values()) {
            if (b.label().equals(text)) {
                return b;
            }
        }
        throw new IllegalArgumentException("--mqtt-broker must be mosquitto, rabbitmq or nats, got '" + text + "'");
    }
}
