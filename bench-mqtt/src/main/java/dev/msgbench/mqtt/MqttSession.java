package dev.msgbench.mqtt;

import java.util.Locale;

/** --mqtt-session: whether the broker keeps a client's session (subscriptions, queued messages) after it leaves. */
public enum MqttSession {

    /** cleanSession=1: the broker forgets the client when it disconnects. */
    CLEAN,
    /**
     * cleanSession=0 with a fixed client id: the broker keeps the subscriptions and queues QoS 1 and 2
     * messages for the client while it is away, and delivers them when it reconnects.
     */
    PERSISTENT;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException naming the values */
    public static MqttSession of(String text) {
        for (MqttSession s : values()) {
            if (s.label().equals(text)) {
                return s;
            }
        }
        throw new IllegalArgumentException("--mqtt-session must be clean or persistent, got '" + text + "'");
    }
}
