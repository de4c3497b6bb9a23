package dev.msgbench.rabbit;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Recoverable;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;
import java.io.IOException;
import java.net.SocketException;

/**
 * One producer stream: its own channel, on a connection of its own or on one it shares with the
 * other streams of its connection number (--producer-threads), publishing through the default exchange to
 * the stream's own queue, through its fanout exchange, or with record keys through its topic
 * exchange with each message's key as its routing key. With confirms, each publish is
 * acknowledged when the broker confirms it.
 *
 * <p>The send time travels in the payload header; the AMQP timestamp property has whole seconds
 * only and is not set.
 */
final class RabbitPublisher implements Publisher {

    private static final int CLOSE_TIMEOUT_MILLIS = 10_000;
    private static final String DEFAULT_EXCHANGE = "";

    private final Connection connection;
    /** Lets go of a shared connection; null when the connection is the stream's own, closed with it. */
    private final AutoCloseable lease;
    private final Channel channel;
    private final String exchange;
    /** The routing key of every message; with record keys, the routing key of each key, by key. */
    private final String[] routingKeys;
    private final AMQP.BasicProperties properties;
    /** Null without confirms. */
    private final PendingConfirms confirms;

    RabbitPublisher(Connection connection, AutoCloseable lease, String queue, boolean persistent,
                    PendingConfirms confirms) throws IOException {
        this(connection, lease, DEFAULT_EXCHANGE, queue, persistent, confirms);
    }

    /**
     * @param exchange the default exchange, with {@code routingKey} the stream's queue; or, with fan-out,
     *                 the stream's fanout exchange, which copies each message to every subscription's queue
     */
    RabbitPublisher(Connection connection, AutoCloseable lease, String exchange, String routingKey, boolean persistent,
                    PendingConfirms confirms) throws IOException {
        this(connection, lease, exchange, new String[] {routingKey}, persistent, confirms);
    }

    /**
     * @param lease       lets go of a shared connection once this stream's channel is closed; null when
     *                    the connection is the stream's own, closed with it
     * @param routingKeys with record keys, on the stream's topic exchange: each key's routing key, by key
     */
    RabbitPublisher(Connection connection, AutoCloseable lease, String exchange, String[] routingKeys,
                    boolean persistent, PendingConfirms confirms) throws IOException {
        this.connection = connection;
        this.lease = lease;
        this.exchange = exchange;
        this.routingKeys = routingKeys;
        this.confirms = confirms;
        this.properties = new AMQP.BasicProperties.Builder().deliveryMode(persistent ? 2 : 1).build();
        this.channel = connection.createChannel();
        if (confirms != null) {
            channel.confirmSelect();
            channel.addConfirmListener(confirms);
            channel.addShutdownListener(cause -> {
                if (!cause.isInitiatedByApplication()) {
                    confirms.failAll(cause);
                }
            });
        }
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception {
        publish(message, 0, sequence, intendedSendNanos);
    }

    @Override
    public void publish(byte[] message, int key, long sequence, long intendedSendNanos) throws Exception {
        String routingKey = routingKeys[key];
        if (confirms == null) {
            try {
                channel.basicPublish(exchange, routingKey, false, properties, message);
            } catch (AlreadyClosedException e) {
                // without confirms nothing is promised: the message is lost, and counted so
                throwUnlessRecovering(e);
            } catch (IOException e) {
                if (!connectionBroke(e)) {
                    throw e;
                }
            }
            return;
        }
        // one thread publishes on this channel, so the next tag is this message's
        long tag = channel.getNextPublishSeqNo();
        confirms.add(tag, sequence, intendedSendNanos);
        try {
            channel.basicPublish(exchange, routingKey, false, properties, message);
        } catch (AlreadyClosedException e) {
            throwUnlessRecovering(e);
            confirms.fail(tag, e);
        } catch (IOException e) {
            if (!connectionBroke(e)) {
                confirms.forget(tag);
                throw e;
            }
            confirms.fail(tag, e);
        } catch (RuntimeException e) {
            confirms.forget(tag);
            throw e;
        }
    }

    /**
     * A write that fails because the broker went away (its socket reset under the publish, before
     * the client noticed and began to recover) loses the message as a closed channel does; any
     * other I/O failure ends the stream.
     */
    private boolean connectionBroke(IOException e) {
        return connection instanceof Recoverable && (e instanceof SocketException || !connection.isOpen());
    }

    /**
     * While the connection recovers (the broker went away), a publish fails without ending the
     * stream; a connection closed for good ends it.
     */
    private void throwUnlessRecovering(AlreadyClosedException e) {
        if (!(connection instanceof Recoverable) || e.isInitiatedByApplication()) {
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        if (lease == null) {
            if (connection.isOpen()) {
                connection.close(CLOSE_TIMEOUT_MILLIS);
            }
            return;
        }
        RabbitMqSystem.closeChannelAndLetGo(channel, lease);
    }
}
