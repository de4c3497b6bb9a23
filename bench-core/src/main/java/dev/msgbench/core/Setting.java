package dev.msgbench.core;

/**
 * A setting of a run that a message to the user names, by the key a workload file writes it with
 * ({@code topics}). bench-core names settings only through these, never by a flag: the command line
 * is one way to give them, a workload file another, an API caller a third, and whoever shows a
 * message names each setting for its reader ({@link SettingNames}; the command line: {@code --topics}).
 */
public enum Setting {
    ACKS("acks"),
    BACKLOG("backlog"),
    BROKER_CPUS("broker-cpus"),
    BROKERS("brokers"),
    CACHE("cache"),
    CA("ca"),
    CLIENT_CERT("client-cert"),
    CLIENT_KEY("client-key"),
    CLIENTS("clients"),
    CONSUME_AFTER_PRODUCE("consume-after-produce"),
    CONSUMERS("consumers"),
    CPUS("cpus"),
    FAULT_TIMEOUT("fault-timeout"),
    FIRST_ECHO_TIMEOUT("first-echo-timeout"),
    ISOLATE("isolate"),
    KEYS("keys"),
    KNOB("knob"),
    LINK_DELAY("link-delay"),
    LINK_JITTER("link-jitter"),
    LINK_LOSS("link-loss"),
    LINK_RATE("link-rate"),
    PATTERN("pattern"),
    PAYLOAD("payload"),
    PRODUCER_THREADS("producer-threads"),
    PRODUCERS("producers"),
    RATE_SCHEDULE("rate-schedule"),
    RUN_ID("run-id"),
    SECURE("secure"),
    SPIN_WINDOW("spin-window"),
    START_AT("start-at"),
    SUBSCRIPTIONS_PER_TOPIC("subscriptions-per-topic"),
    TOPICS("topics"),
    WARMUP("warmup");

    private final String key;

    Setting(String key) {
        this.key = key;
    }

    /** The setting's own name: a workload file's key, and what a message says where no runner names it otherwise. */
    public String key() {
        return key;
    }
}
