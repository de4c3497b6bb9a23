package dev.msgbench.core.testing;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.payload.PayloadHeader;

/**
 * For tests that drive a system adapter across a broker restart: what the subscriber received
 * (by sequence), what it reported failed, and how each publish ended (acknowledged or failed,
 * each exactly once). Messages carry a payload header, so an adapter hands them on as a run's.
 */
public final class RideThrough implements MessageSink, AckListener {

    private static final int RUN_KEY = 12;

    private final Set<Long> received = ConcurrentHashMap.newKeySet();
    private final List<Throwable> subscriberErrors = new CopyOnWriteArrayList<>();
    private final Set<Long> acked = ConcurrentHashMap.newKeySet();
    private final Set<Long> failed = ConcurrentHashMap.newKeySet();
    private final List<String> settledTwice = new CopyOnWriteArrayList<>();
    private final List<Throwable> sendErrors = new CopyOnWriteArrayList<>();
    private volatile Awaited receipts = new Awaited(ConcurrentHashMap.newKeySet(), 0);
    private volatile Awaited outcomes = new Awaited(ConcurrentHashMap.newKeySet(), 0);

    /** A message of {@code sizeBytes} with the header of message {@code sequence} of stream 0. */
    public static byte[] message(int sizeBytes, long sequence) {
        byte[] message = new byte[sizeBytes];
        PayloadHeader.write(message, RUN_KEY, 0, sequence, System.nanoTime());
        PayloadHeader.stampSendTime(message, System.nanoTime());
        return message;
    }

    /** Publishes the sequences {@code from} (inclusive) to {@code to} (exclusive). */
    public static void publish(Publisher publisher, int sizeBytes, long from, long to) throws Exception {
        for (long sequence = from; sequence < to; sequence++) {
            publisher.publish(message(sizeBytes, sequence), sequence, sequence);
        }
        publisher.endOfBurst();
    }

    /**
     * After a restart the publisher's and the subscriber's connections come back each in its own
     * time, and what is published before both have is lost or refused: publishes one message at a
     * time from {@code from} until one arrives, and returns its sequence.
     */
    public long publishUntilOneArrives(Publisher publisher, int sizeBytes, long from) throws Exception {
        for (long sequence = from; ; sequence++) {
            publish(publisher, sizeBytes, sequence, sequence + 1);
            if (awaitReceived(sequence, sequence + 1, 1)) {
                return sequence;
            }
        }
    }

    /** True once every sequence from {@code from} to {@code to} (exclusive) was received. */
    public boolean awaitReceived(long from, long to, long timeoutSeconds) throws InterruptedException {
        Awaited awaited = new Awaited(range(from, to), to - from);
        receipts = awaited;
        awaited.countAlready(received);
        return awaited.latch.await(timeoutSeconds, TimeUnit.SECONDS);
    }

    /** True once every sequence from {@code from} to {@code to} (exclusive) was acknowledged or failed. */
    public boolean awaitSettled(long from, long to, long timeoutSeconds) throws InterruptedException {
        Awaited awaited = new Awaited(range(from, to), to - from);
        outcomes = awaited;
        awaited.countAlready(acked);
        awaited.countAlready(failed);
        return awaited.latch.await(timeoutSeconds, TimeUnit.SECONDS);
    }

    public boolean wasReceived(long sequence) {
        return received.contains(sequence);
    }

    public boolean wasAcked(long sequence) {
        return acked.contains(sequence);
    }

    public Set<Long> failed() {
        return Set.copyOf(failed);
    }

    public List<Throwable> sendErrors() {
        return List.copyOf(sendErrors);
    }

    public List<Throwable> subscriberErrors() {
        return List.copyOf(subscriberErrors);
    }

    /** Sequences acknowledged or failed more than once, or both. */
    public List<String> settledTwice() {
        return List.copyOf(settledTwice);
    }

    @Override
    public void onMessage(byte[] data, int offset, int length, int lane) {
        if (PayloadHeader.isOfRun(data, offset, length, RUN_KEY)) {
            long sequence = PayloadHeader.sequence(data, offset);
            if (received.add(sequence)) {
                receipts.arrived(sequence);
            }
        }
    }

    @Override
    public void onMessage(ByteBuffer data, int lane) {
        byte[] bytes = new byte[data.remaining()];
        data.duplicate().get(bytes);
        onMessage(bytes, 0, bytes.length, lane);
    }

    @Override
    public void onError(Throwable error) {
        subscriberErrors.add(error);
    }

    @Override
    public void acked(long sequence, long intendedSendNanos) {
        settle(sequence, acked, "acked");
    }

    @Override
    public void failed(long sequence, long intendedSendNanos, Throwable error) {
        sendErrors.add(error);
        settle(sequence, failed, "failed");
    }

    private void settle(long sequence, Set<Long> into, String how) {
        if (acked.contains(sequence) || failed.contains(sequence) || !into.add(sequence)) {
            settledTwice.add(sequence + " " + how + " again");
            return;
        }
        outcomes.arrived(sequence);
    }

    private static Set<Long> range(long from, long to) {
        Set<Long> range = ConcurrentHashMap.newKeySet();
        for (long s = from; s < to; s++) {
            range.add(s);
        }
        return range;
    }

    /** The sequences still awaited; each counts down once. */
    private static final class Awaited {
        final Set<Long> waiting;
        final CountDownLatch latch;

        Awaited(Set<Long> waiting, long count) {
            this.waiting = waiting;
            this.latch = new CountDownLatch((int) count);
        }

        void arrived(long sequence) {
            if (waiting.remove(sequence)) {
                latch.countDown();
            }
        }

        void countAlready(Set<Long> seen) {
            for (Long sequence : seen) {
                arrived(sequence);
            }
        }
    }
}
