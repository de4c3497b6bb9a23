package dev.msgbench.mqtt;

/**
 * What a broker's kill or restart loses whatever it keeps on disk: a clean session, or QoS 0,
 * which no broker queues for a client that is away. Only QoS 1 and 2 in a persistent session
 * depend on the broker's persistence, which each broker's own entries say.
 */
final class SessionFaults {

    private SessionFaults() {
    }

    /** The loss that no broker setting changes, or null where the broker's persistence decides. */
    static String losesWhateverTheBroker(int qos, MqttSession session) {
        if (qos == 0) {
            return "every message not yet delivered: QoS 0 is never stored or queued for a client that is away";
        }
        if (session == MqttSession.CLEAN) {
            return "what was queued for a subscriber: it connects again with a clean session, which drops the old "
                    + "session and its queue (MQTT 3.1.1), and what is published before it subscribes again reaches "
                    + "no one";
        }
        return null;
    }
}
