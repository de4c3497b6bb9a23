package dev.msgbench.nats;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.MessageHandler;

import dev.msgbench.core.FirstFailure;

/**
 * A jnats connection with where its asynchronous errors go: the first is kept in {@code failures},
 * which every publisher on it checks before each message, and each goes to the consumers that
 * listen on it ({@link #listen}), as many as share it.
 */
final class JnatsLink implements AutoCloseable {

    final Connection connection;
    private final ErrorRelay relay;
    final FirstFailure failures;
    private final List<Consumer<Throwable>> listeners;
    private Dispatcher dispatcher; // guarded by this
    /** Subscriptions made on this connection, and how many of them a flush confirmed; guarded by this. */
    private long subscriptionsMade;
    private long subscriptionsConfirmed;
    /** Messages the publishers on this connection handed to jnats, counted once publish returned. */
    private final AtomicLong published = new AtomicLong();
    /** How many of {@link #published} a flush that returned covered; guarded by {@link #flushLock}. */
    private long publishedFlushed;
    private final Object flushLock = new Object();

    private JnatsLink(Connection connection, ErrorRelay relay, FirstFailure failures,
                      List<Consumer<Throwable>> listeners) {
        this.connection = connection;
        this.relay = relay;
        this.failures = failures;
        this.listeners = listeners;
    }

    /** @param startedBySuite whether the suite started the server (a silent one is then not --url's fault) */
    static JnatsLink open(String url, NatsAuth auth, Duration timeout, boolean startedBySuite, String name)
            throws InterruptedException {
        return open(url, auth, timeout, startedBySuite, name, new FirstFailure());
    }

    /** @param failures where the connection's errors are kept, shared with another connection's */
    static JnatsLink open(String url, NatsAuth auth, Duration timeout, boolean startedBySuite, String name,
                          FirstFailure failures) throws InterruptedException {
        List<Consumer<Throwable>> listeners = new CopyOnWriteArrayList<>();
        ErrorRelay relay = new ErrorRelay(name, error -> {
            failures.add(error);
            for (Consumer<Throwable> listener : listeners) {
                listener.accept(error);
            }
        });
        return new JnatsLink(NatsConnections.open(url, auth, name, timeout, startedBySuite, relay), relay, failures, listeners);
    }

    /** Hands this connection's errors to {@code listener} too, until {@link #ignore}. */
    void listen(Consumer<Throwable> listener) {
        listeners.add(listener);
    }

    void ignore(Consumer<Throwable> listener) {
        listeners.remove(listener);
    }

    /**
     * The connection's one dispatcher, created on first use with {@code defaultHandler} (null when
     * each subscription brings its own handler): a thread per connection, not per user.
     */
    synchronized Dispatcher dispatcher(MessageHandler defaultHandler) {
        if (dispatcher == null) {
            dispatcher = defaultHandler == null ? connection.createDispatcher() : connection.createDispatcher(defaultHandler);
        }
        return dispatcher;
    }

    /** Counts a subscription just made on this connection; returns the mark {@link #confirm} takes. */
    synchronized long subscribed() {
        return ++subscriptionsMade;
    }

    /**
     * Returns once the server has every subscription made on this connection up to {@code mark}:
     * a flush confirms all made before it, so of the consumers sharing a connection only the first
     * to ask waits for a round trip.
     */
    void confirm(long mark, Duration timeout) throws TimeoutException, InterruptedException {
        long upTo;
        synchronized (this) {
            if (subscriptionsConfirmed >= mark) {
                return;
            }
            upTo = subscriptionsMade;
        }
        connection.flush(timeout);
        synchronized (this) {
            subscriptionsConfirmed = Math.max(subscriptionsConfirmed, upTo);
        }
    }

    /** Counts a message a publisher on this connection just handed to jnats. */
    void published() {
        published.getAndIncrement();
    }

    /**
     * Returns once the server has every message counted by {@link #published} before the call: one
     * round trip (a PING answered by a PONG) for all the streams sharing the connection, since a flush
     * begun after a stream's last publish covers it and the others need none.
     *
     * <p>IMPLEMENTATION NOTES: the count is read before the flush begins, and a publish is counted
     * only once jnats queued it, so every message counted was queued before the PING; a flush that
     * failed covers nothing, and the next caller tries again.
     */
    void flushPublished(Duration timeout) throws TimeoutException, InterruptedException {
        synchronized (flushLock) {
            long upTo = published.get();
            if (upTo == publishedFlushed) {
                return;
            }
            connection.flush(timeout);
            publishedFlushed = upTo;
        }
    }

    @Override
    public void close() throws InterruptedException {
        relay.closing();
        connection.close();
    }
}
