package dev.msgbench.nats;

import java.time.Duration;
import java.util.List;

import io.nats.client.Dispatcher;
import io.nats.client.JetStreamSubscription;
import io.nats.client.MessageConsumer;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.driver.Subscriber;

/**
 * One consumer of its topic's stream, on a connection of its own or on one shared with consumers
 * of other topics: a JetStream consumer per producer stream it owns, each filtered on that
 * stream's subject, each message acknowledged explicitly after the core has it. The consumers
 * exist on the server when this is created.
 */
final class JsSubscriber implements Subscriber {

    /** Stops this consumer's errors reaching its sink: what follows is closing, not the run. */
    private final Runnable mute;
    private final List<MessageConsumer> pullConsumers;
    private final Dispatcher dispatcher;
    private final List<JetStreamSubscription> pushSubscriptions;
    /** Lets go of the connection: closes it unless other consumers still read on it. */
    private final AutoCloseable release;

    /**
     * @param pullConsumers     the pull consumers to stop first; empty with push delivery
     * @param dispatcher        the connection's dispatcher the push subscriptions are on, or null
     * @param pushSubscriptions empty with pull delivery
     */
    JsSubscriber(Runnable mute, List<MessageConsumer> pullConsumers, Dispatcher dispatcher,
                 List<JetStreamSubscription> pushSubscriptions, AutoCloseable release) {
        this.mute = mute;
        this.pullConsumers = List.copyOf(pullConsumers);
        this.dispatcher = dispatcher;
        this.pushSubscriptions = List.copyOf(pushSubscriptions);
        this.release = release;
    }

    @Override
    public void awaitReady(Duration timeout) {
    }

    @Override
    public void close() throws Exception {
        FirstFailure failures = new FirstFailure();
        mute.run();
        for (MessageConsumer consumer : pullConsumers) {
            try {
                consumer.close();
            } catch (Exception e) {
                failures.add(e);
            }
        }
        for (JetStreamSubscription subscription : pushSubscriptions) {
            try {
                dispatcher.unsubscribe(subscription);
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        try {
            release.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failures.add(e);
        } catch (Exception e) {
            failures.add(e);
        }
        failures.throwIfAny("closing a JetStream consumer");
    }
}
