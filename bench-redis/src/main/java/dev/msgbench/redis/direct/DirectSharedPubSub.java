package dev.msgbench.redis.direct;

import java.io.IOException;
import java.net.ProtocolException;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.redis.resp.RespConnection;
import dev.msgbench.redis.resp.RoutedPushHandler;

/**
 * A subscribed {@link RespConnection} that several consumers share ({@code --consumer-connections}
 * below the consumers, {@code --redis-client direct}): it SUBSCRIBEs (or PSUBSCRIBEs) the channels
 * of each, and its reader hands every message to the sink of the consumer of the producer stream
 * its channel or pattern names, straight from the read buffer. Each consumer is ready when the
 * server has confirmed its own channels and patterns; the connection closes with the last of them.
 */
public final class DirectSharedPubSub implements RoutedPushHandler, AutoCloseable {

    private final RespConnection connection;
    private final Supplier<String> lostConnectionCause;
    /** By route (producer stream); set before the consumer's SUBSCRIBE is written, read by the reader. */
    private final Consumer[] byRoute;
    private final Router router;
    private int users;
    private boolean started;
    private volatile boolean ended;
    private volatile boolean closing;
    private volatile IOException failure;

    /** A route from a channel's or pattern's bytes: the producer stream it names, or -1. */
    public interface Router {
        int route(byte[] name, int offset, int length);
    }

    /**
     * @param routes    how many routes (producer streams) there are
     * @param router    the route of a channel or pattern
     */
    public DirectSharedPubSub(RespConnection connection, int routes, Router router,
                              Supplier<String> lostConnectionCause) {
        this.connection = connection;
        this.byRoute = new Consumer[routes];
        this.router = router;
        this.lostConnectionCause = lostConnectionCause;
    }

    /** The consumer of the producer streams {@code routes}, subscribed to {@code channels} and {@code patterns}. */
    public synchronized Subscriber subscribe(List<Integer> routes, List<byte[]> channels, List<byte[]> patterns,
                                             MessageSink sink) throws IOException {
        Consumer c = new Consumer(sink, channels.size() + patterns.size());
        for (int r : routes) {
            byRoute[r] = c;
        }
        users++;
        DirectPubSubSubscriber.send(connection, "SUBSCRIBE", channels);
        DirectPubSubSubscriber.send(connection, "PSUBSCRIBE", patterns);
        if (!started) {
            started = true;
            connection.startRoutedPushes(this);
        }
        return c;
    }

    @Override
    public int route(byte[] name, int offset, int length) {
        return router.route(name, offset, length);
    }

    @Override
    public void message(int route, byte[] data, int offset, int length) {
        Consumer c = route >= 0 && route < byRoute.length ? byRoute[route] : null;
        if (c != null) {
            c.sink.onMessage(data, offset, length, 0);
        }
    }

    @Override
    public void subscribed(int route) {
        Consumer c = route >= 0 && route < byRoute.length ? byRoute[route] : null;
        if (c != null) {
            c.confirmed++; // the reader thread is the only writer
        }
    }

    @Override
    public void ended(IOException cause) {
        failure = cause;
        ended = true;
        if (closing) {
            return;
        }
        IllegalStateException lost = new IllegalStateException(cause instanceof ProtocolException
                ? "a Redis subscriber failed: " + cause.getMessage()
                : "a Redis subscriber lost its connection; what was published meanwhile is lost ("
                + lostConnectionCause.get() + ")" + (cause == null ? "" : ": " + cause.getMessage()) + "; "
                + DirectPubSubSubscriber.NO_RECONNECT, cause);
        for (Consumer c : byRoute) {
            if (c != null) {
                c.sink.onError(lost);
            }
        }
    }

    /** Closes the connection whoever still uses it: the system's close after a failed run. */
    @Override
    public void close() throws IOException {
        closing = true;
        connection.close();
    }

    private void release() throws IOException {
        synchronized (this) {
            if (--users > 0) {
                return;
            }
        }
        close();
    }

    /** One consumer on the shared connection. */
    private final class Consumer implements Subscriber {

        private final MessageSink sink;
        private final int subscriptions;
        private volatile int confirmed;
        private boolean closed;

        Consumer(MessageSink sink, int subscriptions) {
            this.sink = sink;
            this.subscriptions = subscriptions;
        }

        @Override
        public void awaitReady(Duration timeout) throws Exception {
            DirectPubSubSubscriber.awaitConfirmed(timeout, () -> confirmed >= subscriptions, () -> ended,
                    () -> failure);
        }

        @Override
        public void close() throws IOException {
            synchronized (DirectSharedPubSub.this) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            release();
        }
    }
}
