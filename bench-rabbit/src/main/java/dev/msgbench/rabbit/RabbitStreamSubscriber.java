package dev.msgbench.rabbit;

import com.rabbitmq.stream.Consumer;
import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.OffsetSpecification;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;
import java.time.Duration;

/**
 * One consumer of a topic's stream, on a connection of its own, from the stream's first offset,
 * tracking no offset on the broker (a run reads its own streams once). A stream is one log, in
 * order: lane 0.
 */
final class RabbitStreamSubscriber implements Subscriber {

    private final Consumer consumer;

    /** Returns once the broker has accepted the subscription: the client's build waits for its answer. */
    RabbitStreamSubscriber(Environment environment, String stream, MessageSink sink) {
        this.consumer = environment.consumerBuilder()
                .stream(stream)
                .offset(OffsetSpecification.first())
                .noTrackingStrategy()
                .messageHandler((context, message) -> {
                    byte[] body = message.getBodyAsBinary();
                    sink.onMessage(body, 0, body.length, 0);
                })
                .build();
    }

    @Override
    public void awaitReady(Duration timeout) {
        // subscribed in the constructor
    }

    @Override
    public void close() {
        consumer.close();
    }
}
