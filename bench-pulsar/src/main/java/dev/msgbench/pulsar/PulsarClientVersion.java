package dev.msgbench.pulsar;

import org.apache.pulsar.PulsarVersion;

/** The client library's version, as its jar says it. */
final class PulsarClientVersion {

    static final String VALUE = PulsarVersion.getVersion();

    private PulsarClientVersion() {
    }
}
