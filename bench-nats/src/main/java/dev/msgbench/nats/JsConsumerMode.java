package dev.msgbench.nats;

import java.util.Locale;

/** How JetStream delivers to a consumer. */
public enum JsConsumerMode {
    /** The server pushes messages to the consumer's deliver subject as they are stored. */
    PUSH,
    /** The client keeps pull requests outstanding and the server answers them as messages arrive. */
    PULL;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
