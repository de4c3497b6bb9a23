package dev.msgbench.pulsar.broker;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;

import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.pulsar.nativetool.PerfUrl;

/** A Pulsar the suite started: one standalone ({@link LocalPulsar}) or a cluster ({@link LocalPulsarCluster}). */
public interface LocalPulsarBroker extends LocalBroker {

    /** {@code http://HOST:PORT}, the admin REST API; a cluster's in Pulsar's multi-host form, every broker's. */
    String adminUrl();

    /** The service URL with the admin URL, so that pulsar-perf's runs can delete their topics ({@link PerfUrl}). */
    @Override
    default String nativeToolUrl() {
        return PerfUrl.of(url(), adminUrl());
    }

    /** The settings msgbench wrote into the nodes' files, the user's overrides included, without ports and paths. */
    Map<String, String> effectiveConf();

    /** From the launch of the first JVM to the last broker's first healthy answer. */
    Duration startTime();

    /**
     * What TLS covers: "none" for an open Pulsar; with --secure the ports it is on and, for a
     * cluster, what stays plain inside it.
     */
    String encryption();

    /** "standalone" or "cluster": what the result's settings are named after. */
    String kind();

    /**
     * The node that runs the broker whose service URL is {@code brokerUrl} (pulsar://HOST:PORT, as a
     * topic lookup answers), or empty when none of this Pulsar's does.
     */
    OptionalInt nodeOfBroker(String brokerUrl);
}
