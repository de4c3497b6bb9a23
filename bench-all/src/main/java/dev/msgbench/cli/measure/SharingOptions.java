package dev.msgbench.cli.measure;

import java.util.Locale;

import dev.msgbench.cli.Limits;
import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.core.run.ClientMemory;
import dev.msgbench.core.run.ClientSharing;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Producers and consumers as logical clients that share threads and connections, as OpenMessaging
 * Benchmark runs thousands of producers on a few threads: each producer stream keeps its own
 * schedule, sequence numbers and counts, each consumer its own sink and counts, whatever they share.
 */
public final class SharingOptions {

    /** Threads or connections: each is one. */
    static final int MAX_SHARED = Limits.MAX_CLIENTS;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--producer-threads", paramLabel = "N",
            description = {"Threads the producer streams share, each with one connection: stream s is sent from "
                    + "thread s mod N, each message at its own stream's intended time and measured from it (so the "
                    + "time it waited for the other streams of its thread is in its latency). At most 1,000 and at "
                    + "most --producers. Default: a thread per producer up to 1,000 producers; beyond that one per processor "
                    + "(as OpenMessaging Benchmark), since a shared thread spins before a send that is due soon.",
                    "Only on a schedule (e2e): a throughput run's streams have no times to take turns by."})
    Integer producerThreads;

    @Option(names = "--consumer-connections", paramLabel = "N",
            description = "Connections the consumers share: consumer i receives on connection i mod N, shared with the "
                    + "consumers of the same subscription and member number on other topics; each consumer keeps its "
                    + "own counts. At most 1,000; below the number of consumers (--consumers x --topics x "
                    + "--subscriptions-per-topic), a multiple of --consumers x --subscriptions-per-topic. Default: a "
                    + "connection per consumer up to 1,000 consumers, beyond that the largest such multiple up to one per "
                    + "processor (at least one such multiple).")
    Integer consumerConnections;

    /** Set by {@link #validate}: what the run shares. */
    public ClientSharing sharing = ClientSharing.PER_CLIENT;

    /**
     * @param producers            producer streams (--producers), checked already
     * @param consumers            consumers over every topic and subscription
     * @param consumersPerTopic    --consumers x --subscriptions-per-topic: connections below {@code consumers} are
     *                             a multiple of it
     */
    void validate(int producers, int consumers, int consumersPerTopic) {
        int threads = producers <= MAX_SHARED ? 0 : ClientSharing.defaultSharedThreads();
        if (producerThreads != null) {
            if (producerThreads < 1 || producerThreads > Math.min(MAX_SHARED, producers)) {
                throw error(String.format(Locale.US, "--producer-threads must be from 1 to %,d (at most 1,000, each "
                        + "is a thread and a connection, and at most --producers), got %,d", Math.min(MAX_SHARED,
                        producers), producerThreads));
            }
            threads = producerThreads == producers ? 0 : producerThreads;
        }
        int connections;
        if (consumerConnections == null) {
            connections = consumers <= MAX_SHARED ? 0 : defaultConnections(consumersPerTopic);
        } else {
            int most = Math.min(MAX_SHARED, consumers);
            if (consumerConnections < 1 || consumerConnections > most) {
                throw error(String.format(Locale.US, "--consumer-connections must be from 1 to %,d (at most 1,000, each "
                        + "is a connection, and at most the %,d consumers), got %,d", most, consumers,
                        consumerConnections));
            }
            if (consumerConnections < consumers && consumerConnections % consumersPerTopic != 0) {
                throw error(String.format(Locale.US, "--consumer-connections must be a multiple of %,d (--consumers x "
                        + "--subscriptions-per-topic: a connection serves one consumer of each subscription of the "
                        + "topics it reads), got %,d", consumersPerTopic, consumerConnections));
            }
            connections = consumerConnections == consumers ? 0 : consumerConnections;
        }
        sharing = new ClientSharing(threads, connections);
    }

    /** The default shared connections; refused when a topic alone has more than 1,000 consumers. */
    private int defaultConnections(int consumersPerTopic) {
        if (consumersPerTopic > MAX_SHARED) {
            throw error(String.format(Locale.US, "--consumers x --subscriptions-per-topic must be at most 1,000 for "
                    + "consumers to share connections (each connection serves one consumer of each subscription of "
                    + "a topic), got %,d", consumersPerTopic));
        }
        return ClientSharing.defaultSharedConnections(consumersPerTopic);
    }

    /** Whether producer streams share threads or consumers connections. */
    boolean shares(int producers, int consumers) {
        return sharing.sharesProducerThreads(producers) || sharing.connectionsFor(consumers) < consumers;
    }

    /** Refuses sharing where the run has no schedule: a throughput run's streams have no times to take turns by. */
    void refuseWithoutSchedule(int producers) {
        if (!sharing.sharesProducerThreads(producers)) {
            return;
        }
        if (producerThreads == null) {
            throw error(String.format(Locale.US, "--producers %,d: beyond 1,000 producers share threads, which only a "
                    + "schedule allows (e2e); a throughput run has a thread per producer, at most 1,000", producers));
        }
        throw error(String.format(Locale.US, "--producer-threads %,d: producer streams share threads only on a schedule "
                + "(e2e); a throughput run has a thread per producer (give --producer-threads %,d or leave it out)",
                producerThreads, producers));
    }

    /** Refuses sharing with a feature that has a client per thread of its own (--workers, --pattern echo). */
    void refuseWith(String feature, int producers, int consumers) {
        if (shares(producers, consumers)) {
            throw error(String.format(Locale.US, "%s gives every producer and consumer a thread or connection of its "
                    + "own, and this run shares them (--producer-threads %,d for %,d producers, --consumer-connections "
                    + "%,d for %,d consumers); give at most 1,000 of each without --producer-threads and "
                    + "--consumer-connections, or leave %s out", feature, sharing.threadsFor(producers), producers,
                    sharing.connectionsFor(consumers), consumers, feature));
        }
    }

    /**
     * What the cell's producers and consumers take in memory, and whether it fits this JVM's heap (the
     * run refuses it otherwise); null when it is too little to mention.
     */
    public static String memoryLine(ParsedCell cell, long maxHeapBytes) {
        MessageOptions m = cell.messages();
        int subscriptions = m.destinations.subscriptionsPerTopic;
        ClientMemory memory = new ClientMemory(m.producers, m.consumers * m.destinations.topics * subscriptions,
                subscriptions, ClientMemory.streamRateMsgsPerSec(cell.pacing(), m.producers),
                m.sharing.sharing.threadsFor(m.producers), (int) m.sizeBytes);
        if (!memory.worthSaying() && memory.fits(maxHeapBytes)) {
            return null;
        }
        return "memory: " + memory.describe(maxHeapBytes) + (memory.fits(maxHeapBytes) ? ""
                : "; this JVM would refuse it: " + memory.refusal(maxHeapBytes));
    }

    private ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
