package dev.msgbench.mqtt;

import java.util.Locale;
import java.util.Map;

/**
 * What a SIGKILL or a clean restart of Mosquitto loses, from the persistence settings the suite
 * wrote. Mosquitto keeps persistent sessions, their subscriptions and the QoS 1 and 2 messages
 * queued for them in memory, and writes them to mosquitto.db only when it saves (every
 * {@code autosave_interval} seconds, or changes with {@code autosave_on_changes}, and on a clean
 * stop): a kill takes whatever came after the last save, a PUBACK already sent included. A restart
 * without the session forgets the subscription too, so what is published before the subscriber
 * subscribes again reaches no one.
 */
final class MosquittoFaults {

    private static final String NOTHING_PERSISTED =
            "everything: persistence is off, a restarted Mosquitto has no session and no queued message";

    private MosquittoFaults() {
    }

    static String killLoses(Map<String, String> written) {
        if (!isTrue(written.get("persistence"))) {
            return NOTHING_PERSISTED;
        }
        String interval = written.getOrDefault("autosave_interval", "1800").strip();
        if (interval.equals("0")) {
            return "everything since it started: with autosave_interval 0 Mosquitto saves mosquitto.db only on a "
                    + "clean stop";
        }
        if (isTrue(written.get("autosave_on_changes"))) {
            return "the sessions and queued messages changed since the last save: Mosquitto saves mosquitto.db after "
                    + "every " + interval + " changes (subscriptions, retained and queued messages) and on a clean stop";
        }
        return "the sessions and queued messages changed since the last save: Mosquitto saves mosquitto.db every "
                + interval + " s and on a clean stop, so a kill before the first save loses every one";
    }

    /** A clean stop (SIGTERM) saves mosquitto.db whatever autosave_interval says. */
    static String restartLoses(Map<String, String> written) {
        return isTrue(written.get("persistence"))
                ? "no acknowledged message: a clean stop saves mosquitto.db, with the sessions, their subscriptions "
                        + "and queued messages, and QoS 2 handshakes in flight"
                : NOTHING_PERSISTED;
    }

    private static boolean isTrue(String value) {
        return value != null && value.strip().toLowerCase(Locale.ROOT).equals("true");
    }
}
