package dev.msgbench.core.driver;

import java.util.OptionalInt;

import dev.msgbench.core.payload.RecordKeys;

/**
 * A system under test, configured for one run: the whole of what a {@code bench-<system>}
 * module implements. The engine calls, in order: {@link #prepare}, {@link #subscribe} for each
 * consumer, {@link #publisher} for each producer stream, then closes publishers, subscribers
 * and finally this. Drivers never compute latency.
 */
public interface MessagingSystem extends AutoCloseable {

    /**
     * Creates what the run needs (topic, stream, queue) and checks limits such as the maximum
     * message size, failing with a {@link dev.msgbench.core.UserError} that names the setting.
     */
    void prepare(RunPlan plan) throws Exception;

    Subscriber subscribe(int index, MessageSink sink) throws Exception;

    /**
     * Called before {@link #prepare} when the run gives each message a record key (--keys other
     * than none): a system that gives keys a meaning (Kafka's partitioner) keeps them for its
     * publishers and returns null; one where a key would change nothing returns why, in one
     * clause, and the engine refuses the run rather than ignore the flag.
     */
    default String useKeys(RecordKeys keys) {
        return "a record key would change nothing in how it routes or batches messages";
    }

    Publisher publisher(int streamId, AckListener acks) throws Exception;

    /**
     * Whether a subscriber created after messages were published still receives them (a log, a
     * stream, a queue), which consuming "from the start of the log" needs. Plain pub/sub keeps
     * nothing for late subscribers.
     */
    default boolean retainsMessages() {
        return false;
    }

    /**
     * How this system, as configured, loses messages by design (a bounded stream, a subscriber
     * cut off), for the warning of a run that lost some; null when it does not. Valid after
     * {@link #prepare}.
     */
    default String lossHint() {
        return null;
    }

    /**
     * The node of the local broker, numbered from 1 as {@link dev.msgbench.core.broker.LocalBroker}
     * numbers them, that leads this run's data, for a fault aimed at {@code node=leader}: Kafka the
     * leader of the run topic's partition 0, JetStream the stream's cluster leader, RabbitMQ the
     * queue's node, Redis its one node (the primary). Valid after {@link #prepare}; asks the broker
     * each time, since a failover moves the leader. Empty when the system cannot tell, e.g. a broker
     * given with --url whose names do not map to node numbers, or while no node leads.
     *
     * @throws Exception when the broker cannot be asked (it is down, the request timed out)
     */
    default OptionalInt leaderNode() throws Exception {
        return OptionalInt.empty();
    }

    /** Valid after {@link #prepare}; recorded in every result. */
    SystemInfo info();

    /** Removes what {@link #prepare} created where that is safe, and disconnects. */
    @Override
    void close() throws Exception;
}
