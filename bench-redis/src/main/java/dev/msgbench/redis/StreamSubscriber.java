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
    private final MessageSink sink;
    private final byte[] group;
    private final Consumer<byte[]> consumer;
    private final XReadArgs read;
    private final StreamOffset<byte[]>[] offsets;
    private final List<byte[]> keys;
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
        this.fields = fields;
        this.connector = connector;
        this.connection = connection;
        this.sink = sink;
        this.group = group;
        this.consumer = Consumer.from(group, ("consumer-" + index).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        this.read = XReadArgs.Builder.block(settings.block()).count(settings.readCount());
        this.offsets = keys.stream().map(StreamOffset::lastConsumed).toArray(StreamOffset[]::new);
        this.keys = List.copyOf(keys);
        this.thread = new Thread(this, "msgbench-redis-consumer-" + index);
        thread.setDaemon(true);
        if (offsets.length > 0) {
            thread.start();
        }
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
                        sink.onError(error);
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
                    sink.onError(e);
                    return false;
                }
                createGroupsAgain(sync);
                return true;
            }
            if (connector.awaitOpen(connection)) {
                return true;
            }
            sink.onError(new IllegalStateException("a Redis Streams consumer lost its connection and it was not back "
                    + "within " + connector.reconnectFor().toSeconds() + " s: " + e.getMessage(), e));
            return false;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        } catch (RuntimeException again) {
            if (running) {
                again.addSuppressed(e);
                sink.onError(again);
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

    private void deliver(StreamMessage<byte[], byte[]> entry) {
        Map<byte[], byte[]> body = entry.getBody();
        if (body == null || body.size() != fields) {
            sink.onError(new IllegalStateException("stream entry " + entry.getId() + " has "
                    + (body == null ? "no" : body.size()) + " fields, expected " + fields));
            return;
        }
        // the message is the last field (lettuce keeps the entry's order)
        byte[] value = null;
        for (byte[] v : body.values()) {
            value = v;
        }
        sink.onMessage(value, 0, value.length, 0);
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
