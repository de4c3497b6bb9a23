package dev.msgbench.core.system;

/**
 * Which figure a native tool's run gives: the publisher's rate, from runs without a consumer, or
 * the subscriber's, from runs of their own with one producer and one consumer.
 */
public enum NativeSide {

    PUBLISHER("pub"),
    SUBSCRIBER("sub");

    private final String shortName;

    NativeSide(String shortName) {
        this.shortName = shortName;
    }

    /** How log files and scripts/compare-native name the side: pub or sub. */
    public String shortName() {
        return shortName;
    }
}
