package dev.msgbench.nats;

import java.time.Duration;

import io.nats.client.Connection;

import dev.msgbench.core.driver.Subscriber;

/**
 * One consumer's connection: a subscriber handing messages to the core, or in request/reply a
 * responder echoing them. Its subscriptions are in place when it is created (flushed to the server).
 */
final class CoreSubscriber implements Subscriber {

    private final Connection connection;
    private final ErrorRelay relay;

    CoreSubscriber(Connection connection, ErrorRelay relay) {
        this.connection = connection;
        this.relay = relay;
    }

    /** Nothing to wait for: the server confirmed the subscriptions (flush) before this was made. */
    @Override
    public void awaitReady(Duration timeout) {
    }

    @Override
    public void close() throws InterruptedException {
        relay.closing();
        connection.close();
    }
}
