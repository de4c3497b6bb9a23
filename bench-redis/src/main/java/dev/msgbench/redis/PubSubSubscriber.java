package dev.msgbench.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * SUBSCRIBE to the channels of some producer streams, or with record keys PSUBSCRIBE to patterns
 * covering their key channels, on a connection of its own. Lettuce calls the listener on its I/O
 * thread, which hands the bytes to the sink as they are.
 */
final class PubSubSubscriber implements Subscriber {

    private static final long READY_POLL_MILLIS = 10;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final RedisConnector connector;
    private final StatefulRedisPubSubConnection<byte[], byte[]> connection;
    private final BooleanSupplier subscribed;
    private final RedisFuture<Void> subscription;
    private final RedisFuture<Void> patternSubscription;
    private final int patterns;
    /** Patterns the server confirmed, counted by lettuce's thread (again after a reconnect). */
    private volatile int patternsConfirmed;
    private volatile boolean closing;

    /**
     * @param lostConnectionCause why the connection was lost, asked when it is
     * @param patterns            PSUBSCRIBE patterns, with record keys; empty without
     * @param subscribed          true once the server counts a subscriber on every channel
     * @param serverRestarted     whether the server is another than at the start (asked once reconnected)
     */
    PubSubSubscriber(RedisConnector connector, StatefulRedisPubSubConnection<byte[], byte[]> connection,
                     List<byte[]> channels, List<byte[]> patterns, MessageSink sink, Supplier<String> lostConnectionCause,
                     BooleanSupplier subscribed, BooleanSupplier serverRestarted) {
        this.connector = connector;
        this.connection = connection;
        this.subscribed = subscribed;
        connection.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(byte[] channel, byte[] message) {
                sink.onMessage(message, 0, message.length, 0);
            }

            @Override
            public void message(byte[] pattern, byte[] channel, byte[] message) {
                sink.onMessage(message, 0, message.length, 0);
            }

            @Override
            public void psubscribed(byte[] pattern, long count) {
                patternsConfirmed++; // lettuce's one I/O thread of this connection is the only writer
            }
        });
        connector.onDisconnect(connection, () -> rideThrough(sink, lostConnectionCause, serverRestarted));
        subscription = channels.isEmpty() ? null : connection.async().subscribe(channels.toArray(new byte[0][]));
        this.patterns = patterns.size();
        patternSubscription = patterns.isEmpty() ? null : connection.async().psubscribe(patterns.toArray(new byte[0][]));
    }

    /**
     * A lost connection that lettuce has back, on a server that restarted meanwhile, is ridden
     * through (lettuce subscribed again; what was published meanwhile counts as lost, which pub/sub
     * allows). One back on the same server means the server cut this subscriber off, and one not
     * back within reconnectFor means the server went away: either fails the run, with its cause.
     */
    private void rideThrough(MessageSink sink, Supplier<String> lostConnectionCause, BooleanSupplier serverRestarted) {
        IllegalStateException lost = lostConnection(connector, connection, () -> closing, lostConnectionCause,
                serverRestarted);
        if (lost != null) {
            sink.onError(lost);
        }
    }

    /** What a lost connection means for its subscribers, as {@link #rideThrough} says; null to ride through. */
    static IllegalStateException lostConnection(RedisConnector connector, StatefulRedisPubSubConnection<?, ?> connection,
                                                BooleanSupplier closing, Supplier<String> lostConnectionCause,
                                                BooleanSupplier serverRestarted) {
        boolean back;
        try {
            back = connector.awaitOpen(connection);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        if (closing.getAsBoolean() || back && serverRestarted.getAsBoolean()) {
            return null;
        }
        return new IllegalStateException("a Redis subscriber lost its connection; what was published meanwhile "
                + "is lost (" + lostConnectionCause.get() + ")"
                + (back ? "" : "; it was not back within " + connector.reconnectFor().toSeconds() + " s"));
    }

    /**
     * Waits until the server itself counts this subscription (PUBSUB NUMSUB for channels, its
     * confirmation of each pattern): a message published earlier would be lost.
     */
    @Override
    public void awaitReady(Duration timeout) throws Exception {
        awaitSubscribed(timeout, () -> patternsConfirmed >= patterns && subscribed.getAsBoolean(), connection,
                subscription, patternSubscription);
    }

    /** Waits until {@code confirmed} says the server counts the subscriptions; fails on a refusal or a lost connection. */
    static void awaitSubscribed(Duration timeout, BooleanSupplier confirmed, StatefulRedisPubSubConnection<?, ?> connection,
                                RedisFuture<Void> subscription, RedisFuture<Void> patternSubscription) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!confirmed.getAsBoolean()) {
            throwIfRefused(subscription);
            throwIfRefused(patternSubscription);
            if (!connection.isOpen()) {
                throw new IllegalStateException("a Redis subscriber lost its connection before it was subscribed");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("Redis did not confirm the subscriptions within " + timeout.toSeconds() + " s");
            }
            Thread.sleep(READY_POLL_MILLIS);
        }
    }

    /** Throws what the server answered to a (P)SUBSCRIBE, if it refused. */
    private static void throwIfRefused(RedisFuture<Void> asked) throws Exception {
        if (asked != null && asked.isDone()) {
            asked.get();
        }
    }

    @Override
    public void close() throws Exception {
        closing = true;
        connector.forget(connection);
        connection.closeAsync().get(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }
}
