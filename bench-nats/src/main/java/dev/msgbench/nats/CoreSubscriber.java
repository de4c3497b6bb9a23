package dev.msgbench.nats;

import java.time.Duration;

import dev.msgbench.core.driver.Subscriber;

/**
 * One consumer: a subscriber handing messages to the core, or in request/reply a responder
 * echoing them, on a connection of its own or on one it shares with consumers of other topics.
 * On a connection of its own its subscriptions are in place when it is created (flushed to the
 * server); on a shared one once {@link #awaitReady} returns, so that one flush confirms the
 * subscriptions of every consumer made on it before.
 */
final class CoreSubscriber implements Subscriber {

    /** Waits until the server has this consumer's subscriptions. */
    interface Readiness {
        void await(Duration timeout) throws Exception;
    }

    private final Readiness readiness;
    /** Ends this consumer's subscriptions and lets go of its connection. */
    private final AutoCloseable leave;

    /** A consumer whose subscriptions the server confirmed before this was made. */
    CoreSubscriber(AutoCloseable leave) {
        this(timeout -> { }, leave);
    }

    CoreSubscriber(Readiness readiness, AutoCloseable leave) {
        this.readiness = readiness;
        this.leave = leave;
    }

    @Override
    public void awaitReady(Duration timeout) throws Exception {
        readiness.await(timeout);
    }

    @Override
    public void close() throws Exception {
        leave.close();
    }
}
