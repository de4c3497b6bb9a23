package dev.msgbench.core.run;

/**
 * How the run's logical clients share threads and connections (--producer-threads,
 * --consumer-connections). A producer stream keeps its own schedule, sequence numbers, counts and
 * publisher whatever it shares; stream {@code s} is sent from thread {@code s mod producerThreads},
 * on that thread's connection. Consumer {@code i} receives on connection {@code i mod
 * consumerConnections}, in the client library's thread of that connection.
 *
 * @param producerThreads     threads (and connections) the producer streams share; 0 for one per stream
 * @param consumerConnections connections the consumers share; 0 for one per consumer
 */
public record ClientSharing(int producerThreads, int consumerConnections) {

    /** A thread and a connection for every producer stream and a connection for every consumer: every run before sharing. */
    public static final ClientSharing PER_CLIENT = new ClientSharing(0, 0);

    /**
     * More clients than this (each a thread and a connection of its own) share threads and
     * connections by default.
     */
    public static final int MAX_OWN = 1000;

    public ClientSharing {
        if (producerThreads < 0 || consumerConnections < 0) {
            throw new IllegalArgumentException("threads and connections >= 0 (0: one per client): " + producerThreads
                    + ", " + consumerConnections);
        }
    }

    /** The threads that send {@code producers} streams. */
    public int threadsFor(int producers) {
        return producerThreads == 0 ? producers : Math.min(producerThreads, producers);
    }

    /** The connections {@code consumers} receive on. */
    public int connectionsFor(int consumers) {
        return consumerConnections == 0 ? consumers : Math.min(consumerConnections, consumers);
    }

    /** Whether some producer streams share a thread. */
    public boolean sharesProducerThreads(int producers) {
        return threadsFor(producers) < producers;
    }

    /**
     * The threads more than {@link #MAX_OWN} producer streams share by default: one per processor, as
     * OpenMessaging Benchmark's workers run theirs. Each shared thread spins before a send that is due
     * soon, so more threads than cores would steal the time of the ones that have something due
     * (measured on 2 cores: 6,000 streams at 50,000 msg/s, p50 0.025 ms on 8 threads, 0.9 to 3.9 s on 1,000).
     */
    public static int defaultSharedThreads() {
        return Math.min(MAX_OWN, Runtime.getRuntime().availableProcessors());
    }

    /**
     * The connections more than {@link #MAX_OWN} consumers share by default: the largest multiple of a
     * topic's consumers ({@code consumersPerTopic}, which a shared connection must be) up to one per
     * processor, and at least one such multiple.
     */
    public static int defaultSharedConnections(int consumersPerTopic) {
        int perProcessor = Math.max(consumersPerTopic, defaultSharedThreads());
        return perProcessor / consumersPerTopic * consumersPerTopic;
    }

    public ClientSharing withProducerThreads(int threads) {
        return new ClientSharing(threads, consumerConnections);
    }

    public ClientSharing withConsumerConnections(int connections) {
        return new ClientSharing(producerThreads, connections);
    }
}
