package dev.msgbench.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * One lettuce pub/sub connection that several consumers share ({@code --consumer-connections}
 * below the consumers): it subscribes (or with record keys pattern-subscribes) the channels of
 * each, and hands every message to the sink of the consumer of its channel's stream, which the
 * channel (or pattern) names ({@link Routing#streamOf}). The consumers of one connection read
 * different topics, so no stream has two of them here. Each consumer is ready when the server
 * counts its own subscriptions; the connection closes with the last of them.
 */
final class SharedPubSubConnection implements AutoCloseable {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final RedisConnector connector;
    private final StatefulRedisPubSubConnection<byte[], byte[]> connection;
    /** By producer stream; set before the consumer's SUBSCRIBE is sent, read by lettuce's thread. */
    private final Consumer[] byStream;
    private int users;
    private volatile boolean closing;

    SharedPubSubConnection(RedisConnector connector, StatefulRedisPubSubConnection<byte[], byte[]> connection,
                           int producers, Supplier<String> lostConnectionCause, BooleanSupplier serverRestarted) {
        this.connector = connector;
        this.connection = connection;
        this.byStream = new Consumer[producers];
        connection.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(byte[] channel, byte[] message) {
                deliver(channel, message);
            }

            @Override
            public void message(byte[] pattern, byte[] channel, byte[] message) {
                deliver(pattern, message);
            }

            @Override
            public void psubscribed(byte[] pattern, long count) {
                Consumer c = of(pattern);
                if (c != null) {
                    c.patternsConfirmed++; // lettuce's one I/O thread of this connection is the only writer
                }
            }
        });
        connector.onDisconnect(connection, () -> {
            IllegalStateException lost = PubSubSubscriber.lostConnection(connector, connection, () -> closing,
                    lostConnectionCause, serverRestarted);
            if (lost != null) {
                for (Consumer c : byStream) {
                    if (c != null) {
                        c.sink.onError(lost);
                    }
                }
            }
        });
    }

    private Consumer of(byte[] route) {
        int stream = Routing.streamOf(route, 0, route.length);
        return stream >= 0 && stream < byStream.length ? byStream[stream] : null;
    }

    private void deliver(byte[] route, byte[] message) {
        Consumer c = of(route);
        if (c != null) {
            c.sink.onMessage(message, 0, message.length, 0);
        }
    }

    /**
     * Consumer {@code streams}' subscriptions on this connection.
     *
     * @param subscribed true once the server counts a subscriber on every channel of the consumer's
     */
    synchronized Subscriber subscribe(List<Integer> streams, List<byte[]> channels, List<byte[]> patterns,
                                      MessageSink sink, BooleanSupplier subscribed) {
        Consumer c = new Consumer(sink, patterns.size(), subscribed);
        for (int s : streams) {
            byStream[s] = c;
        }
        users++;
        c.subscription = channels.isEmpty() ? null : connection.async().subscribe(channels.toArray(new byte[0][]));
        c.patternSubscription = patterns.isEmpty() ? null
                : connection.async().psubscribe(patterns.toArray(new byte[0][]));
        return c;
    }

    private void release() throws Exception {
        synchronized (this) {
            if (--users > 0) {
                return;
            }
        }
        close();
    }

    @Override
    public void close() throws Exception {
        closing = true;
        connector.forget(connection);
        connection.closeAsync().get(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One consumer on the shared connection. */
    private final class Consumer implements Subscriber {

        private final MessageSink sink;
        private final int patterns;
        private final BooleanSupplier subscribed;
        private RedisFuture<Void> subscription;
        private RedisFuture<Void> patternSubscription;
        private volatile int patternsConfirmed;
        private boolean closed;

        Consumer(MessageSink sink, int patterns, BooleanSupplier subscribed) {
            this.sink = sink;
            this.patterns = patterns;
            this.subscribed = subscribed;
        }

        @Override
        public void awaitReady(Duration timeout) throws Exception {
            PubSubSubscriber.awaitSubscribed(timeout, () -> patternsConfirmed >= patterns && subscribed.getAsBoolean(),
                    connection, subscription, patternSubscription);
        }

        @Override
        public void close() throws Exception {
            synchronized (SharedPubSubConnection.this) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            release();
        }
    }
}
