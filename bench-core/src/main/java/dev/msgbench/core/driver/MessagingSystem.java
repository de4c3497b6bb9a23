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
     * What the system, as configured, promises about order and copies: by default order within a
     * lane and no redelivery by design. Read once the subscribers have closed, so that {@link
     * DeliveryPromise#witness()} may say what the client counted during the run.
     */
    default DeliveryPromise deliveryPromise() {
        return DeliveryPromise.ORDERED;
    }

    /**
     * Why this system, as configured, delivers messages it was told to abort (Kafka's consumers in
     * read_uncommitted read an aborted transaction's records), for the line of a run that aborted
     * some on purpose; null where consumers must never see one, so that each delivery is a fault.
     * Valid after {@link #prepare}.
     */
    default String abortedDeliveryHint() {
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

    /**
     * The node of the local broker, numbered as {@link #leaderNode} numbers them, that coordinates
     * this run's transactions, for a fault aimed at {@code node=coordinator}: Kafka the transaction
     * coordinator of the run's first transactional id. Asks the broker each time. Empty where the
     * run commits no transactions or the system cannot tell.
     *
     * @throws Exception when the broker cannot be asked
     */
    default OptionalInt coordinatorNode() throws Exception {
        return OptionalInt.empty();
    }

    /** Valid after {@link #prepare}; recorded in every result. */
    SystemInfo info();

    /**
     * What the broker counted of this run's destinations, read once every client of the run is
     * closed (so every acknowledged byte is in); null where the system reports no such counter.
     *
     * @throws Exception when the broker cannot be asked; the result then says so in a warning
     */
    default BrokerBytes brokerBytes() throws Exception {
        return null;
    }

    /** Removes what {@link #prepare} created where that is safe, and disconnects. */
    @Override
    void close() throws Exception;
}
