package dev.msgbench.nats;

import java.time.Duration;
import java.util.List;

import io.nats.client.Connection;
import io.nats.client.MessageConsumer;

import dev.msgbench.core.driver.Subscriber;

/**
 * One consumer's connection to the run's stream: a JetStream consumer per producer stream it
 * owns, each filtered on that stream's subject, each message acknowledged explicitly after the
 * core has it. The consumers exist on the server when this is created.
 */
final class JsSubscriber implements Subscriber {

    private final Connection connection;
    private final ErrorRelay relay;
    private final List<MessageConsumer> pullConsumers;

    /** @param pullConsumers the pull consumers to stop first; empty with push delivery */
    JsSubscriber(Connection connection, ErrorRelay relay, List<MessageConsumer> pullConsumers) {
        this.connection = connection;
        this.relay = relay;
        this.pullConsumers = List.copyOf(pullConsumers);
    }

    @Override
    public void awaitReady(Duration timeout) {
    }

    @Override
    public void close() throws Exception {
        Exception first = null;
        relay.closing();
        for (MessageConsumer consumer : pullConsumers) {
            try {
                consumer.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        try {
            connection.close();
        } catch (InterruptedException e) {
            if (first != null) {
                e.addSuppressed(first);
            }
            throw e;
        }
        if (first != null) {
            throw first;
        }
    }
}
