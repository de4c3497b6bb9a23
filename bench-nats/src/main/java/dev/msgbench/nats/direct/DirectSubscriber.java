package dev.msgbench.nats.direct;

import java.time.Duration;

import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.nats.wire.WireConnection;

/**
 * One consumer reading the NATS protocol itself: its connection's reader thread parses each MSG
 * and hands the payload to the core in place. jnats hands every message from its reader thread
 * to a dispatcher thread through a queue, a second wake-up on the receive path of every message.
 */
public final class DirectSubscriber implements Subscriber {

    /** Waits until the server has this consumer's subscriptions. */
    public interface Readiness {
        void await(Duration timeout) throws Exception;
    }

    private final Readiness readiness;
    /** Ends this consumer's subscriptions and lets go of its connection, shared or not. */
    private final AutoCloseable leave;

    /** @param wire subscribed, and its subscriptions confirmed by a PING answered */
    public DirectSubscriber(WireConnection wire) {
        this(timeout -> { }, wire);
    }

    /**
     * A consumer on a connection shared with others.
     *
     * @param readiness returns once the server has its subscriptions (a PING answered)
     * @param leave     unsubscribes this consumer and lets go of the connection
     */
    public DirectSubscriber(Readiness readiness, AutoCloseable leave) {
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
