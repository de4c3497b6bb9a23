package dev.msgbench.redis;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;
import io.lettuce.core.Consumer;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * One consumer of the run's group on the stream keys of some producer streams, on a connection of
 * its own, read by a thread of its own: XREADGROUP ... BLOCK ... COUNT ... STREAMS k1 k2 > >, hand
 * every entry to the sink, then one XACK per stream key for the entries of that read. The XACK is
 * pipelined ahead of the next read, not awaited; a failed XACK fails the run. A dropped connection
 * and a restarted server are ridden through ({@link #rideThrough}).
 */
final class StreamSubscriber implements Subscriber, Runnable {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final RedisConnector connector;
    private final StatefulRedisConnection<byte[], byte[]> connection;
    /** The one consumer's sink on a connection of its own; null on a shared one. */
    private final MessageSink sink;
    /** On a shared connection, each consumer's sink by the producer stream it reads; null on one of its own. */
    private final MessageSink[] byStream;
    private final byte[] group;
    private final Consumer<byte[]> consumer;
    private final XReadArgs read;
    /** Grow as consumers join a shared connection; each read reads them anew. */
    private volatile StreamOffset<byte[]>[] offsets;
    private volatile List<byte[]> keys;
    private int users;
    private boolean started;
    /** An entry's fields: the message's, and with record keys the key's before it. */
    private final int fields;
    private final Thread thread;
    private volatile boolean running = true;
    /** The last XACK sent; replies come in order, so when it is answered all are. */
    private volatile CompletionStage<?> lastAck = CompletableFuture.completedFuture(null);

    /** @param fields an entry's fields: 1, the message; 2 with record keys, the key then the message */
    @SuppressWarnings("unchecked")
    StreamSubscriber(int index, RedisConnector connector, StatefulRedisConnection<byte[], byte[]> connection,
                     List<byte[]> keys, byte[] group, StreamSettings settings, int fields, MessageSink sink) {
        this("consumer-" + index, connector, connection, keys, group, settings, fields, sink, null);
        if (offsets.length > 0) {
            thread.start();
        }
    }

    /**
     * A connection that several consumers of one subscription share ({@code --consumer-connections}
     * below the consumers): one read over the keys of all of them, each entry handed to the sink of
     * the consumer of its key's producer stream ({@link Routing#streamOf}). Consumers join with
     * {@link #add}; the reading starts with the first.
     *
     * @param producers the run's producer streams
     */
    @SuppressWarnings("unchecked")
    StreamSubscriber(String name, RedisConnector connector, StatefulRedisConnection<byte[], byte[]> connection,
                     byte[] group, StreamSettings settings, int fields, int producers) {
        this(name, connector, connection, List.of(), group, settings, fields, null, new MessageSink[producers]);
    }

    @SuppressWarnings("unchecked")
    private StreamSubscriber(String name, RedisConnector connector, StatefulRedisConnection<byte[], byte[]> connection,
                             List<byte[]> keys, byte[] group, StreamSettings settings, int fields, MessageSink sink,
                             MessageSink[] byStream) {
        this.fields = fields;
        this.connector = connector;
        this.connection = connection;
        this.sink = sink;
        this.byStream = byStream;
        this.group = group;
        this.consumer = Consumer.from(group, name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        this.read = XReadArgs.Builder.block(settings.block()).count(settings.readCount());
        this.offsets = keys.stream().map(StreamOffset::lastConsumed).toArray(StreamOffset[]::new);
        this.keys = List.copyOf(keys);
        this.thread = new Thread(this, "msgbench-redis-" + name);
        thread.setDaemon(true);
    }

    /**
     * Consumer of the producer streams {@code streams}, whose keys are {@code keys}, on this shared
     * connection: read from the next read on, from where the group stands (nothing is missed).
     */
    @SuppressWarnings("unchecked")
    synchronized Subscriber add(List<Integer> streams, List<byte[]> streamKeys, MessageSink consumerSink) {
        for (int s : streams) {
            byStream[s] = consumerSink;
        }
        List<byte[]> all = new ArrayList<>(keys);
        all.addAll(streamKeys);
        keys = List.copyOf(all);
        offsets = all.stream().map(StreamOffset::lastConsumed).toArray(StreamOffset[]::new);
        users++;
        if (!all.isEmpty() && !started) {
            started = true;
            thread.start();
        }
        return new Subscriber() {
            private boolean closed;

            @Override
            public void awaitReady(Duration timeout) {
                StreamSubscriber.this.awaitReady(timeout);
            }

            @Override
            public void close() throws Exception {
                synchronized (StreamSubscriber.this) {
                    if (closed || --users > 0) {
                        closed = true;
                        return;
                    }
                    closed = true;
                }
                StreamSubscriber.this.close();
            }
        };
    }

    @Override
    public void run() {
        RedisCommands<byte[], byte[]> sync = connection.sync();
        RedisAsyncCommands<byte[], byte[]> async = connection.async();
        while (running) {
            List<StreamMessage<byte[], byte[]>> entries;
            try {
                entries = sync.xreadgroup(consumer, read, offsets);
            } catch (RuntimeException e) {
                if (!running || !rideThrough(e, sync)) {
                    return;
                }
                continue;
            }
            if (entries == null || entries.isEmpty()) {
                continue;
            }
            Map<ByteBuffer, List<String>> idsByKey = new LinkedHashMap<>();
            for (StreamMessage<byte[], byte[]> entry : entries) {
                deliver(entry);
                idsByKey.computeIfAbsent(ByteBuffer.wrap(entry.getStream()), k -> new ArrayList<>()).add(entry.getId());
            }
            for (Map.Entry<ByteBuffer, List<String>> ids : idsByKey.entrySet()) {
                RedisFuture<Long> ack = async.xack(ids.getKey().array(), group, ids.getValue().toArray(new String[0]));
                lastAck = ack;
                ack.whenComplete((count, error) -> {
                    if (error != null && !ofLostServer(error)) {
                        fail(error);
                    }
                });
            }
        }
    }

    /**
     * A read that failed because the connection dropped waits for lettuce to have it back; one
     * that found no group (a server restarted without its data: the suite's default keeps none)
     * creates the group again, from the stream's start, so that what producers added since the
     * restart is read. True to read on; false once the failure is reported.
     */
    private boolean rideThrough(RuntimeException e, RedisCommands<byte[], byte[]> sync) {
        try {
            if (e instanceof RedisCommandExecutionException) {
                if (!isNoGroup(e)) {
                    fail(e);
                    return false;
                }
                createGroupsAgain(sync);
                return true;
            }
            if (connector.awaitOpen(connection)) {
                return true;
            }
            fail(new IllegalStateException("a Redis Streams consumer lost its connection and it was not back "
                    + "within " + connector.reconnectFor().toSeconds() + " s: " + e.getMessage(), e));
            return false;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        } catch (RuntimeException again) {
            if (running) {
                again.addSuppressed(e);
                fail(again);
            }
            return false;
        }
    }

    private void createGroupsAgain(RedisCommands<byte[], byte[]> sync) {
        for (byte[] key : keys) {
            try {
                sync.xgroupCreate(StreamOffset.from(key, "0-0"), group, XGroupCreateArgs.Builder.mkstream(true));
            } catch (RedisCommandExecutionException e) {
                if (e.getMessage() == null || !e.getMessage().startsWith("BUSYGROUP")) {
                    throw e;
                }
            }
        }
    }

    private static boolean isNoGroup(Throwable e) {
        return e.getMessage() != null && e.getMessage().startsWith("NOGROUP");
    }

    /**
     * An XACK that failed because the connection dropped, or that reached a restarted server without
     * the group: what it acknowledged was delivered, and the server that held it pending is gone.
     */
    private static boolean ofLostServer(Throwable error) {
        return !(error instanceof RedisCommandExecutionException) || isNoGroup(error);
    }

    /** Every consumer of the connection hears of its failure. */
    private void fail(Throwable error) {
        if (sink != null) {
            sink.onError(error);
            return;
        }
        for (MessageSink s : byStream) {
            if (s != null) {
                s.onError(error);
            }
        }
    }

    private void deliver(StreamMessage<byte[], byte[]> entry) {
        MessageSink to = sink;
        if (to == null) {
            byte[] key = entry.getStream();
            int stream = Routing.streamOf(key, 0, key.length);
            to = stream >= 0 && stream < byStream.length ? byStream[stream] : null;
            if (to == null) {
                return;
            }
        }
        Map<byte[], byte[]> body = entry.getBody();
        if (body == null || body.size() != fields) {
            to.onError(new IllegalStateException("stream entry " + entry.getId() + " has "
                    + (body == null ? "no" : body.size()) + " fields, expected " + fields));
            return;
        }
        // the message is the last field (lettuce keeps the entry's order)
        byte[] value = null;
        for (byte[] v : body.values()) {
            value = v;
        }
        to.onMessage(value, 0, value.length, 0);
    }

    /** The group was created before this consumer: it gets every entry added from then on, whenever it reads. */
    @Override
    public void awaitReady(Duration timeout) {
        if (offsets.length > 0 && !thread.isAlive()) {
            throw new IllegalStateException("a Redis Streams consumer stopped before the run started");
        }
    }

    @Override
    public void close() throws Exception {
        running = false;
        thread.join(CLOSE_TIMEOUT.toMillis());
        // closing would cancel XACKs still awaiting their reply, and report them failed
        Replies.awaitQuietly(lastAck, CLOSE_TIMEOUT);
        connector.forget(connection);
        connection.closeAsync().get(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }
}
