package dev.msgbench.core.driver;

import java.time.Duration;

/** One consumer of the system under test, delivering to a {@link MessageSink}. */
public interface Subscriber extends AutoCloseable {

    /**
     * Returns once the subscription is in place, so that the first scheduled message is not
     * measured against the time it took to join (for Kafka: partitions assigned).
     */
    void awaitReady(Duration timeout) throws Exception;

    @Override
    void close() throws Exception;
}
