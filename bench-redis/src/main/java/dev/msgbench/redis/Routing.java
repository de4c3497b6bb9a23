package dev.msgbench.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.payload.RecordKeys;

/**
 * Where each producer stream goes: a channel (pub/sub) or stream key (Streams) of its own, named
 * after its topic (the run's id with one topic) so that runs never meet. Each consumer reads the
 * destinations of the streams {@link RunPlan#streamsOf} deals it: with one topic and one
 * subscription, consumer c the streams s with s % consumers == c. Every message reaches one
 * consumer of each subscription of its topic, and one stream's messages reach it in the order they
 * were sent.
 */
final class Routing {

    private final RunPlan plan;

    Routing(RunPlan plan) {
        this.plan = plan;
    }

    String name(int streamId) {
        return plan.topicName(plan.topicOf(streamId)) + ":" + streamId;
    }

    byte[] key(int streamId) {
        return name(streamId).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * With record keys, pub/sub's channel of each key of stream {@code streamId}, by key: {@code
     * <stream's channel>:k<key>}, built once so that a publish only picks one.
     */
    byte[][] keyChannels(int streamId, RecordKeys keys) {
        byte[][] channels = new byte[keys.count()][];
        for (int k = 0; k < channels.length; k++) {
            channels[k] = (name(streamId) + ":" + RecordKeys.name(k)).getBytes(StandardCharsets.UTF_8);
        }
        return channels;
    }

    /**
     * With record keys, the PSUBSCRIBE patterns consumer {@code index} reads: {@code <stream's
     * channel>:*} for each of its streams, which covers that stream's key channels and no other
     * stream's ({@code run:1:*} does not match {@code run:10:k0}).
     */
    List<byte[]> keyPatternsOf(int index) {
        List<byte[]> patterns = new ArrayList<>();
        for (int s : streamsOf(index)) {
            patterns.add((name(s) + ":*").getBytes(StandardCharsets.UTF_8));
        }
        return patterns;
    }

    /**
     * The streams consumer {@code index} reads, as {@link RunPlan#streamsOf} deals them, found
     * without looking at every stream: with thousands of topics and consumers, one look per stream
     * and consumer would be billions.
     */
    List<Integer> streamsOf(int index) {
        List<Integer> streams = new ArrayList<>();
        int topic = plan.topicOfConsumer(index);
        long step = (long) plan.topics() * plan.consumersPerSubscription();
        for (long s = topic + (long) plan.topics() * plan.memberOfConsumer(index); s < plan.producers(); s += step) {
            streams.add((int) s);
        }
        return streams;
    }

    /** The destinations consumer {@code index} reads; empty when there are more consumers than streams. */
    List<byte[]> keysOf(int index) {
        List<byte[]> keys = new ArrayList<>();
        for (int s : streamsOf(index)) {
            keys.add(key(s));
        }
        return keys;
    }

    List<byte[]> allKeys() {
        List<byte[]> keys = new ArrayList<>();
        for (int s = 0; s < plan.producers(); s++) {
            keys.add(key(s));
        }
        return keys;
    }

    /** The producer streams that share connection {@code connection}, in order: c, c + connections, ... */
    List<Integer> streamsOnConnection(int connection) {
        List<Integer> streams = new ArrayList<>();
        for (int s = connection; s < plan.producers(); s += plan.producerConnections()) {
            streams.add(s);
        }
        return streams;
    }

    /** Which of its connection's streams stream {@code streamId} is, from 0 (see {@link #streamsOnConnection}). */
    int placeOnConnection(int streamId) {
        return streamId / plan.producerConnections();
    }

    /**
     * The producer stream a channel, pattern or stream key of the run names: the number it ends
     * with ({@code run:17}, {@code run-t2:17:*}); -1 when it ends with none. A shared consumer
     * connection routes each message by it, without an object per message.
     */
    static int streamOf(byte[] name, int offset, int length) {
        int i = offset + length - 1;
        while (i >= offset && (name[i] < '0' || name[i] > '9')) {
            i--;
        }
        int stream = 0;
        int scale = 1;
        int digits = 0;
        for (; i >= offset && name[i] >= '0' && name[i] <= '9'; i--) {
            stream += (name[i] - '0') * scale;
            scale *= 10;
            digits++;
        }
        return digits == 0 ? -1 : stream;
    }

    /** The consumer group of subscription {@code subscription}: one per subscription, each reading every entry. */
    byte[] group(String base, int subscription) {
        String name = plan.subscriptionsPerTopic() == 1 ? base : base + "-s" + subscription;
        return name.getBytes(StandardCharsets.UTF_8);
    }

    /** For the results: how names are formed and who reads what. */
    String describe() {
        if (plan.topics() * plan.subscriptionsPerTopic() > 1) {
            return plan.runId() + "-t<topic>:<stream> (stream s on topic s mod " + plan.topics() + "), read by one of the "
                    + plan.consumersPerSubscription() + " consumers of each of the topic's " + plan.subscriptionsPerTopic()
                    + " subscriptions";
        }
        return plan.runId() + ":<stream>, read by consumer <stream> % " + plan.consumers();
    }
}
