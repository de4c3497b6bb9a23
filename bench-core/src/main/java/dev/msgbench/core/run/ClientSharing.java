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

    public ClientSharing withProducerThreads(int threads) {
        return new ClientSharing(threads, consumerConnections);
    }

    public ClientSharing withConsumerConnections(int connections) {
        return new ClientSharing(producerThreads, connections);
    }
}
