package dev.msgbench.nats;

import java.time.Duration;

import dev.msgbench.core.driver.Subscriber;

/**
 * One consumer: a subscriber handing messages to the core, or in request/reply a responder
 * echoing them, on a connection of its own or on one it shares with consumers of other topics.
 * Its subscriptions are in place when it is created (flushed to the server).
 */
final class CoreSubscriber implements Subscriber {

    /** Ends this consumer's subscriptions and lets go of its connection. */
    private final AutoCloseable leave;

    CoreSubscriber(AutoCloseable leave) {
        this.leave = leave;
    }

    /** Nothing to wait for: the server confirmed the subscriptions (flush) before this was made. */
    @Override
    public void awaitReady(Duration timeout) {
    }

    @Override
    public void close() throws Exception {
        leave.close();
    }
}
