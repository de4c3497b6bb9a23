package dev.msgbench.rabbit;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.ShutdownSignalException;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * One consumer: one channel consuming the queues of its producer streams, on a connection of its own
 * or on one it shares with the consumers of its connection number (--consumer-connections), each of
 * them with its own channel, prefetch and acknowledgements.
 * The client delivers a channel's messages one at a time and in order, so each stream's order is
 * kept: lane 0, since a stream is one queue.
 */
final class RabbitSubscriber implements Subscriber {

    private static final int CLOSE_TIMEOUT_MILLIS = 10_000;

    private final Connection connection;
    /** Lets go of a shared connection; null when the connection is the consumer's own, closed with it. */
    private final AutoCloseable lease;
    private final Channel channel;
    private final List<String> queues;
    private volatile boolean closing;

    /**
     * @param queueType how the run's queues were declared: each is declared again here, the same
     *                  way, so that this connection's own recovery declares it before it consumes
     *                  from it again (a node restarted on its data has lost a transient queue, and
     *                  the admin connection may recover later than this one)
     * @param lease     lets go of a shared connection once this consumer's channel is closed; null when
     *                  the connection is the consumer's own, closed with it
     */
    RabbitSubscriber(int index, Connection connection, AutoCloseable lease, List<String> queues, QueueType queueType,
                     MessageSink sink, ConsumerAck ack, int prefetch) throws IOException {
        this.connection = connection;
        this.lease = lease;
        this.queues = List.copyOf(queues);
        this.channel = connection.createChannel();
        boolean autoAck = ack == ConsumerAck.AUTO;
        if (!autoAck) {
            channel.basicQos(prefetch);
        }
        for (String queue : queues) {
            channel.queueDeclare(queue, queueType.durable(), false, false, queueType.arguments());
            // basicConsume waits for consume-ok: once it returns, the queue delivers to us
            channel.basicConsume(queue, autoAck, "msgbench-consumer-" + index + "-" + queue,
                    new Delivery(channel, queue, sink, autoAck));
        }
    }

    @Override
    public void awaitReady(Duration timeout) {
        if (!channel.isOpen()) {
            throw new IllegalStateException("the RabbitMQ channel of consumer for " + queues + " closed: "
                    + channel.getCloseReason());
        }
    }

    @Override
    public void close() throws Exception {
        closing = true;
        if (lease == null) {
            if (connection.isOpen()) {
                connection.close(CLOSE_TIMEOUT_MILLIS);
            }
            return;
        }
        RabbitMqSystem.closeChannelAndLetGo(channel, lease);
    }

    private final class Delivery extends DefaultConsumer {

        private final String queue;
        private final MessageSink sink;
        private final boolean autoAck;

        Delivery(Channel channel, String queue, MessageSink sink, boolean autoAck) {
            super(channel);
            this.queue = queue;
            this.sink = sink;
            this.autoAck = autoAck;
        }

        @Override
        public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties,
                                   byte[] body) {
            sink.onMessage(body, 0, body.length, 0);
            if (autoAck) {
                return;
            }
            try {
                getChannel().basicAck(envelope.getDeliveryTag(), false);
            } catch (IOException | RuntimeException e) {
                // thrown on, the client would close the channel as if we had, and nobody would hear of it
                sink.onError(e);
            }
        }

        @Override
        public void handleCancel(String consumerTag) {
            sink.onError(new IllegalStateException("RabbitMQ cancelled the consumer of queue " + queue
                    + " (was the queue deleted?)"));
        }

        @Override
        public void handleShutdownSignal(String consumerTag, ShutdownSignalException cause) {
            // a recovering connection registers the consumer again: the outage shows as late and lost
            // messages. The signal names the connection underneath the recovering one, so ask ours.
            if (!closing && !cause.isInitiatedByApplication() && !(connection instanceof Recoverable)) {
                sink.onError(cause);
            }
        }
    }
}
