package dev.msgbench.core.broker;

import java.nio.file.Path;

/**
 * A broker, or a cluster of broker nodes, that the suite started on this machine and owns.
 *
 * <p>Nodes are numbered from 1, as the messages and log files name them ("kafka node 2").
 */
public interface LocalBroker extends AutoCloseable {

    /** What clients connect to, in the system's own syntax, e.g. {@code 127.0.0.1:9092,127.0.0.1:9094}. */
    String url();

    int nodeCount();

    /** The broker's own version, for the results. */
    String version();

    /** Where the nodes' logs are written. */
    Path logDir();

    /** The operating system pid of one node, for fault injection and for checks. */
    long pid(int node);

    /** Sends {@code signal} to one node (and to any processes it started). */
    void signal(int node, Signal signal);

    /**
     * Stops every node and removes the temporary directories. Idempotent and thread-safe; safe to
     * call from a shutdown hook. Never throws a checked exception.
     */
    @Override
    void close();
}
