package dev.msgbench.rabbit;

import com.rabbitmq.stream.Consumer;
import com.rabbitmq.stream.ConsumerBuilder;
import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.OffsetSpecification;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;
import java.time.Duration;

/**
 * One consumer of a topic's stream or super stream, on a connection of its own, from the first
 * offset, tracking no offset on the broker (a run reads its own streams once). A stream is one log,
 * in order: lane 0; a super stream's partition {@code i} (stream {@code TOPIC-i}) is lane {@code i},
 * the unit within which it keeps order. In a single-active-consumer group, the broker has this
 * consumer read each stream only while it is that stream's active one.
 */
final class RabbitStreamSubscriber implements Subscriber {

    private final Consumer consumer;

    /**
     * Returns once the broker has accepted the subscription: the client's build waits for its answer.
     *
     * @param partitions the super stream's, or 0 for a plain stream
     * @param group      the single-active-consumer group's name, or null for a consumer that reads all
     * @param handoff    what the group has read, for a group; null without one
     */
    RabbitStreamSubscriber(Environment environment, String stream, int partitions, String group,
                           ActiveConsumerHandoff handoff, MessageSink sink) {
        ConsumerBuilder builder = environment.consumerBuilder();
        if (partitions > 0) {
            builder.superStream(stream);
        } else {
            builder.stream(stream);
        }
        if (group != null) {
            builder.name(group).singleActiveConsumer()
                    .consumerUpdateListener(context -> context.isActive()
                            ? handoff.resumeAt(lane(context.stream(), partitions)) : null);
        }
        this.consumer = builder
                .offset(OffsetSpecification.first())
                .noTrackingStrategy()
                .messageHandler((context, message) -> {
                    byte[] body = message.getBodyAsBinary();
                    int lane = lane(context.stream(), partitions);
                    if (handoff != null) {
                        handoff.read(lane, context.offset());
                    }
                    sink.onMessage(body, 0, body.length, lane);
                })
                .build();
    }

    /** The partition number ending a super stream's partition stream, {@code TOPIC-i}; 0 for a plain stream. */
    static int lane(String stream, int partitions) {
        return partitions == 0 ? 0 : Integer.parseInt(stream, stream.lastIndexOf('-') + 1, stream.length(), 10);
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
