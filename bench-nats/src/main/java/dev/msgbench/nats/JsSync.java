package dev.msgbench.nats;

import java.util.Locale;

/** When a JetStream server fsyncs its file store; a server-wide setting, so only a local server's can be chosen. */
public enum JsSync {
    /** The server's sync_interval as it is (2 minutes on current servers): writes reach the page cache only. */
    DEFAULT,
    /** jetstream { sync_interval: always }: fsync after every write, before the PubAck (nats-server 2.10+). */
    ALWAYS;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
