package dev.msgbench.core.driver;

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

    /** Valid after {@link #prepare}; recorded in every result. */
    SystemInfo info();

    /** Removes what {@link #prepare} created where that is safe, and disconnects. */
    @Override
    void close() throws Exception;
}
