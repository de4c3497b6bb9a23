package dev.msgbench.redis.direct;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.redis.resp.PushHandler;
import dev.msgbench.redis.resp.RespConnection;

/**
 * SUBSCRIBE (with record keys PSUBSCRIBE) on a {@link RespConnection} of its own ({@code
 * --redis-client direct}): the reader thread parses each pushed message and hands the payload
 * to the sink straight from its read buffer, with no object per message. Redis has no flow control for subscribers, so one that
 * reads slower than producers publish is disconnected at the server's pubsub output limit; this
 * one reads about as fast as redis-cli.
 */
final class DirectPubSubSubscriber implements Subscriber, PushHandler {

    private static final long READY_POLL_MILLIS = 10;
    static final String NO_RECONNECT = "the direct client does not reconnect; --redis-client lettuce rides through "
            + "a restarted server";

    private final RespConnection connection;
    private final MessageSink sink;
    private final Supplier<String> lostConnectionCause;
    /** Channels and patterns the server is to confirm. */
    private final int subscriptions;
    private volatile int confirmed;
    private volatile boolean ended;
    private volatile boolean closing;
    private volatile IOException failure;

    DirectPubSubSubscriber(RespConnection connection, List<byte[]> channels, List<byte[]> patterns, MessageSink sink,
                           Supplier<String> lostConnectionCause) throws IOException {
        this.connection = connection;
        this.sink = sink;
        this.lostConnectionCause = lostConnectionCause;
        this.subscriptions = channels.size() + patterns.size();
        send(connection, "SUBSCRIBE", channels);
        send(connection, "PSUBSCRIBE", patterns);
        connection.startPushes(this);
    }

    static void send(RespConnection connection, String command, List<byte[]> arguments) throws IOException {
        if (!arguments.isEmpty()) {
            List<String> words = new ArrayList<>(List.of(command));
            arguments.forEach(c -> words.add(new String(c, StandardCharsets.UTF_8)));
            connection.send(words.toArray(String[]::new));
        }
    }

    @Override
    public void message(byte[] data, int offset, int length) {
        sink.onMessage(data, offset, length, 0);
    }

    @Override
    public void subscribed() {
        confirmed++; // the reader thread is the only writer
    }

    @Override
    public void ended(IOException cause) {
        failure = cause;
        ended = true;
        if (!closing) {
            sink.onError(new IllegalStateException(cause instanceof ProtocolException
                    ? "a Redis subscriber failed: " + cause.getMessage()
                    : "a Redis subscriber lost its connection; what was published meanwhile is lost ("
                    + lostConnectionCause.get() + ")"
                    + (cause == null ? "" : ": " + cause.getMessage()) + "; " + NO_RECONNECT, cause));
        }
    }

    /** Waits for the server's confirmation of every channel and pattern: a message published earlier would be lost. */
    @Override
    public void awaitReady(Duration timeout) throws Exception {
        awaitConfirmed(timeout, () -> confirmed >= subscriptions, () -> ended, () -> failure);
    }

    /** Waits until {@code confirmed}; fails once the connection {@code ended}, with its {@code failure}. */
    static void awaitConfirmed(Duration timeout, BooleanSupplier confirmed, BooleanSupplier ended,
                               Supplier<IOException> failure) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!confirmed.getAsBoolean()) {
            if (ended.getAsBoolean()) {
                // a refusal or a push no subscriber gets is a failure, not a lost connection
                IOException cause = failure.get();
                String what = cause instanceof ProtocolException ? "failed" : "lost its connection";
                throw new IOException("a Redis subscriber " + what + " before it was subscribed"
                        + (cause == null ? "" : ": " + cause.getMessage()), cause);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("Redis did not confirm the subscriptions within " + timeout.toSeconds() + " s");
            }
            Thread.sleep(READY_POLL_MILLIS);
        }
    }

    @Override
    public void close() throws IOException {
        closing = true;
        connection.close();
    }
}
