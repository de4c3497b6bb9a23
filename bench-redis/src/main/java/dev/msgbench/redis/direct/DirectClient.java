package dev.msgbench.redis.direct;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.redis.resp.RespConnection;

/**
 * {@code --redis-client direct}'s producers and subscribers, as the adapter creates them: each on
 * a {@link RespConnection} of its own ({@link DirectConnections#open}), which it owns from then on.
 * {@code mode} is --acks as the driver interface names it: NONE, the replies are not counted;
 * BROKER, a message's reply acknowledges it; ALL, a WAIT follows each XADD and its reply does.
 *
 * <p>IMPLEMENTATION NOTES: a factory, not public constructors, so that the clients stay
 * package-private: javac gives a public class a public bridge method for each public method it
 * inherits from a package-private one (the ring, {@link DirectPublisher}), a frame more on the
 * per-message path.
 */
public final class DirectClient {

    private DirectClient() {
    }

    /**
     * PUBLISH channel MESSAGE per message; a reply that counts no subscriber is a failed send.
     *
     * @param channels the stream's channel, or with record keys its channel of each key, by key
     * @param capacity the most commands awaiting replies at once (the adapter's in-flight limit)
     */
    public static Publisher pubSubPublisher(RespConnection connection, byte[][] channels, String channelName,
                                            AckListener acks, Acks mode, int capacity) {
        return new DirectPubSubPublisher(connection, channels, channelName, acks, mode, capacity);
    }

    /**
     * XADD key MAXLEN ~ maxlen * field MESSAGE per message, with mode ALL followed by WAIT; with
     * record keys XADD key MAXLEN ~ maxlen * keyField KEY field MESSAGE.
     *
     * @param keyNames with record keys, each key's name by key; null without
     * @param replicas with {@link Acks#ALL}: how many replicas WAIT must hear from
     * @param capacity the most messages awaiting replies at once (the adapter's in-flight limit)
     */
    public static Publisher streamPublisher(RespConnection connection, byte[] key, String keyName, long maxlen,
                                            byte[] field, byte[] keyField, byte[][] keyNames, AckListener acks,
                                            Acks mode, int replicas, Duration waitTimeout, int capacity) {
        return new DirectStreamPublisher(connection, key, keyName, maxlen, field, keyField, keyNames, acks, mode,
                replicas, waitTimeout, capacity);
    }

    /**
     * A connection the PUBLISH of several producer streams share, from one thread; closed when the
     * last of {@link #pubSubPublisher(DirectProducerConnection, int, String, AckListener, Acks, int)}'s
     * publishers on it closes.
     *
     * @param channelsOfStreams each stream's channels (by key), the connection's streams in order
     * @param capacity          the most commands awaiting replies per stream
     */
    public static DirectProducerConnection pubSubConnection(RespConnection connection, List<byte[][]> channelsOfStreams,
                                                            int capacity) {
        return shared(connection, channelsOfStreams.stream().map(DirectPubSubPublisher::prefixes).toList(), new byte[0],
                capacity);
    }

    /** The publisher of stream number {@code local} (from 0) of a {@link #pubSubConnection}. */
    public static Publisher pubSubPublisher(DirectProducerConnection shared, int local, String channelName,
                                            AckListener acks, Acks mode, int capacity) {
        return new DirectPubSubPublisher(shared, local, channelName, acks, mode, capacity);
    }

    /**
     * A connection the XADD (and WAIT) of several producer streams share, from one thread, as
     * {@link #streamPublisher(RespConnection, byte[], String, long, byte[], byte[], byte[][], AckListener, Acks, int,
     * Duration, int)} writes them.
     *
     * @param keys     each stream's key, the connection's streams in order
     * @param capacity the most messages awaiting replies per stream
     */
    public static DirectProducerConnection streamConnection(RespConnection connection, List<byte[]> keys, long maxlen,
                                                            byte[] field, byte[] keyField, byte[][] keyNames, Acks mode,
                                                            int replicas, Duration waitTimeout, int capacity) {
        return shared(connection, keys.stream()
                        .map(key -> DirectStreamPublisher.prefixes(key, maxlen, field, keyField, keyNames)).toList(),
                DirectStreamPublisher.suffix(mode, replicas, waitTimeout), capacity);
    }

    /** The publisher of stream number {@code local} (from 0) of a {@link #streamConnection}. */
    public static Publisher streamPublisher(DirectProducerConnection shared, int local, String keyName,
                                            AckListener acks, Acks mode, int replicas, Duration waitTimeout,
                                            int capacity) {
        return new DirectStreamPublisher(shared, local, keyName, acks, mode, replicas, waitTimeout, capacity);
    }

    private static DirectProducerConnection shared(RespConnection connection, List<byte[][]> prefixesOfStreams,
                                                   byte[] suffix, int capacity) {
        int perStream = prefixesOfStreams.get(0).length;
        byte[][] prefixes = prefixesOfStreams.stream().flatMap(Arrays::stream).toArray(byte[][]::new);
        return new DirectProducerConnection(connection, prefixes, perStream, suffix, capacity * prefixesOfStreams.size());
    }

    /**
     * SUBSCRIBE to {@code channels} and PSUBSCRIBE to {@code patterns} (with record keys), each
     * pushed message handed to {@code sink} from the read buffer.
     *
     * @param lostConnectionCause why the connection was lost (the server ended, or it cut off a subscriber
     *                            that fell behind), asked when it is
     */
    public static Subscriber pubSubSubscriber(RespConnection connection, List<byte[]> channels, List<byte[]> patterns,
                                              MessageSink sink, Supplier<String> lostConnectionCause) throws IOException {
        return new DirectPubSubSubscriber(connection, channels, patterns, sink, lostConnectionCause);
    }
}
