package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;

import io.nats.client.Statistics;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.payload.PayloadHeader;

/**
 * Drives a NATS system as the engine does with many producer streams on few connections: one
 * consumer, every producer stream set up (each proven to reach it), one message from each, every
 * stream flushed once and then again. Asserts that every message arrived and, with awaited
 * acknowledgements, that each stream got its own; returns what the producer connections' jnats
 * statistics counted.
 */
final class ManyStreamsRun {

    private static final Duration WAIT = Duration.ofSeconds(20);

    /**
     * @param flushRoundTrips PINGs the first flush of every stream sent, over all producer connections
     * @param againRoundTrips PINGs a second flush of every stream sent, with nothing published between
     */
    record Observed(long flushRoundTrips, long againRoundTrips) {
    }

    private ManyStreamsRun() {
    }

    /** A plan of {@code producers} streams on {@code connections} connections, one topic and one consumer. */
    static RunPlan plan(String runId, int producers, int connections) {
        return new RunPlan(runId, 64, producers, 1, 1, 1, connections, 1);
    }

    /** Runs {@code plan} on {@code system}, whose publishers are jnats' ({@link CorePublisher}, {@link JsPublisher}). */
    static Observed run(MessagingSystem system, RunPlan plan, boolean awaitsAcks) throws Exception {
        system.prepare(plan);
        Counting sink = new Counting(plan.producers());
        List<Publisher> publishers = new ArrayList<>();
        List<Counting> acks = new ArrayList<>();
        Subscriber subscriber = system.subscribe(0, sink);
        try {
            subscriber.awaitReady(WAIT);
            for (int s = 0; s < plan.producers(); s++) {
                acks.add(new Counting(awaitsAcks ? 1 : 0));
                publishers.add(system.publisher(s, acks.get(s)));
            }
            byte[] message = new byte[PayloadHeader.BYTES + 8];
            for (int s = 0; s < plan.producers(); s++) {
                publishers.get(s).publish(ByteBuffer.wrap(message).putLong(s).array(), s, 0);
            }
            long before = sum(publishers, Statistics::getPings);
            for (Publisher publisher : publishers) {
                publisher.flush();
            }
            long flushed = sum(publishers, Statistics::getPings);
            for (Publisher publisher : publishers) {
                publisher.flush();
            }
            long again = sum(publishers, Statistics::getPings);
            assertTrue(sink.all.await(WAIT.toSeconds(), TimeUnit.SECONDS), sink.count + " of " + plan.producers()
                    + " messages received");
            for (Publisher publisher : publishers) {
                publisher.close();
            }
            for (int s = 0; s < plan.producers(); s++) {
                assertEquals(0, acks.get(s).failed.get(), "stream " + s);
                assertEquals(awaitsAcks ? 1 : 0, acks.get(s).count.get(), "stream " + s + "'s own acknowledgement");
            }
            sink.failures.throwIfAny("the consumer");
            return new Observed(flushed - before, again - flushed);
        } finally {
            subscriber.close();
        }
    }

    /** Summed over the distinct connections the publishers use. */
    private static long sum(List<Publisher> publishers, ToLongFunction<Statistics> figure) {
        Map<Object, Statistics> connections = new IdentityHashMap<>();
        for (Publisher p : publishers) {
            JnatsLink link = ((JnatsPublisher) p).link();
            connections.put(link, link.connection.getStatistics());
        }
        return connections.values().stream().mapToLong(figure).sum();
    }

    /** Counts messages (as the consumer's sink) or acknowledgements (as a stream's listener). */
    private static final class Counting implements MessageSink, AckListener {
        final AtomicLong count = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final CountDownLatch all;
        final FirstFailure failures = new FirstFailure();

        Counting(int expected) {
            this.all = new CountDownLatch(expected);
        }

        @Override
        public void onMessage(byte[] data, int offset, int length, int lane) {
            count.incrementAndGet();
            all.countDown();
        }

        @Override
        public void onMessage(ByteBuffer data, int lane) {
            count.incrementAndGet();
            all.countDown();
        }

        @Override
        public void onError(Throwable error) {
            failures.add(error);
        }

        @Override
        public void acked(long sequence, long intendedSendNanos) {
            count.incrementAndGet();
            all.countDown();
        }

        @Override
        public void failed(long sequence, long intendedSendNanos, Throwable error) {
            failed.incrementAndGet();
        }
    }
}
