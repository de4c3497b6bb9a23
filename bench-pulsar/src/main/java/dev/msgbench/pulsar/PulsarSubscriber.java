package dev.msgbench.pulsar;

import java.time.Duration;

import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageIdAdv;
import org.apache.pulsar.client.api.MessageListener;

import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;

/**
 * One consumer of a subscription, on the client's listener thread: each message to the sink, then
 * acknowledged (asynchronously, one at a time, as an application that processed it would). The
 * partition is the lane: Pulsar orders messages within one.
 */
final class PulsarSubscriber implements Subscriber, MessageListener<byte[]> {

    private static final long serialVersionUID = 1L;

    private final transient MessageSink sink;
    private transient volatile Consumer<byte[]> consumer;

    PulsarSubscriber(MessageSink sink) {
        this.sink = sink;
    }

    /** Set once the subscription exists, before the first message can arrive. */
    void attach(Consumer<byte[]> subscribed) {
        this.consumer = subscribed;
    }

    @Override
    public void received(Consumer<byte[]> from, Message<byte[]> message) {
        byte[] data = message.getData();
        int lane = message.getMessageId() instanceof MessageIdAdv id ? Math.max(0, id.getPartitionIndex()) : 0;
        sink.onMessage(data, 0, data.length, lane);
        from.acknowledgeAsync(message).whenComplete((ignored, error) -> {
            if (error != null) {
                sink.onError(error);
            }
        });
    }

    /** Pulsar's subscribe returns once the subscription exists and the consumer is attached to it. */
    @Override
    public void awaitReady(Duration timeout) {
    }

    @Override
    public void close() throws Exception {
        Consumer<byte[]> c = consumer;
        if (c != null) {
            c.close();
        }
    }
}
