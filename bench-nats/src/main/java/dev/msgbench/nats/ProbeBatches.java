package dev.msgbench.nats;

import java.util.BitSet;

/**
 * Groups the producer streams of each connection into batches that are proven reachable together
 * (one round trip for a batch, not one per stream): stream s is on connection s mod connections,
 * as {@link dev.msgbench.core.driver.RunPlan#producerConnectionOf} spreads them, and a batch is up to
 * {@link #BATCH} consecutive streams of one connection. The first stream of a batch to be set up
 * claims the whole batch; the others then find themselves proven.
 */
final class ProbeBatches {

    /**
     * Streams of one connection probed at once: the server holds their probes for the receiving
     * connections (a few dozen bytes each, far below its 64 MB limit per client) and JetStream
     * answers them, so what is in flight stays bounded however many streams a connection carries.
     */
    static final int BATCH = 4096;

    private final int streams;
    private final int connections;
    /** Which batches were claimed, by batch number; guarded by this. */
    private final BitSet claimed = new BitSet();
    /** Which streams a batch proved, for a caller that keeps no record of its own; guarded by this. */
    private final BitSet proven = new BitSet();

    ProbeBatches(int streams, int connections) {
        this.streams = streams;
        this.connections = connections;
    }

    /** The streams of {@code streamId}'s batch, in order, when it is the first of them to ask; else none. */
    synchronized int[] claim(int streamId) {
        int connection = streamId % connections;
        int batch = streamId / connections / BATCH;
        // numbered across the connections: unique, and as dense as the streams
        int number = batch * connections + connection;
        if (claimed.get(number)) {
            return new int[0];
        }
        claimed.set(number);
        int first = batch * BATCH * connections + connection;
        int size = (int) Math.min(BATCH, ((long) streams - first + connections - 1) / connections);
        int[] members = new int[size];
        for (int i = 0; i < size; i++) {
            members[i] = first + i * connections;
        }
        return members;
    }

    /** Records that {@code streamIds} are proven. */
    synchronized void proved(int[] streamIds) {
        for (int s : streamIds) {
            proven.set(s);
        }
    }

    synchronized boolean proven(int streamId) {
        return proven.get(streamId);
    }
}
