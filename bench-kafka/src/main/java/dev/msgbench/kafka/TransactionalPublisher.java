package dev.msgbench.kafka;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;

/**
 * One producer stream in Kafka transactions (--transactions), on two transactional producers of
 * its own that take turns: one takes the stream's sends in an open transaction while the other
 * commits the transaction before it, on a thread of its own, because commitTransaction blocks
 * until the broker has written the commit. So the schedule never waits for a commit; only when
 * both producers are still committing (a commit that takes longer than a whole transaction) does
 * the next send wait for the first to finish, and that wait is the engine's send delay: the
 * message is sent late and its latency, from its intended send time, grows. It never shows as a
 * silent pause.
 *
 * <p>Where the stream waits at a limit of outstanding messages (throughput's --max-outstanding), a
 * transaction also closes at half that limit: its messages are acknowledged only by its commit, so
 * a transaction that held the whole limit would stop the stream for every commit, the other
 * producer idle beside it (at 1 KiB, Kafka's 32 MiB buffer took a whole limit's sends at once and
 * each commit then waited for all of them to be written). With half, one producer takes the sends
 * while the other commits, and both keep batches in flight.
 *
 * <p>A message is acknowledged when its transaction's commit returns (so the ack histogram is
 * the intended send time to the commit), aborted ({@link AckListener#aborted}) when the run
 * aborted its transaction on purpose (--abort-every), and failed when the commit failed: then
 * Kafka may or may not have written it, and a delivery of it is not a loss. The commit's own time,
 * commitTransaction's call to its return (which includes sending the transaction's last batches
 * and waiting for them), goes to {@link AckListener#committed}.
 *
 * <p>IMPLEMENTATION NOTES: one lock guards which transaction is open. The publishing thread takes it
 * for every send (uncontended but for the moment a transaction closes); the timer thread of a
 * transaction closed by time takes it to close one; a commit thread to hand its producer back.
 * The engine reuses the message array after publish returns, which is safe because send copies the
 * value into its batch before returning.
 */
final class TransactionalPublisher implements Publisher {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    /** How long a producer whose transaction failed is tried again before the stream gives up on it. */
    private static final long RECOVER_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long RETRY_PAUSE_MILLIS = 200;

    private final Slot[] slots;
    private final String topic;
    private final AckListener acks;
    private final KafkaTransactions size;
    private final byte[][] keys;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition slotFree = lock.newCondition();
    private final ExecutorService committers;
    private final ScheduledExecutorService timer;
    /** Taking the stream's sends; null between transactions. Under the lock. */
    private Transaction open;
    /** Transactions begun by the stream, the first numbered 1. Under the lock. */
    private long begun;
    /**
     * The stream's thread waits for acknowledgements at a limit of outstanding messages (an
     * unpaced run): they come only with a commit, so the open transaction closes when it waits. Read
     * and written by the publishing thread only.
     */
    private boolean closesWhenWaiting;
    /**
     * The most messages of one transaction: --transactions' count, and half the stream's limit of
     * outstanding messages where it has one. Set before the first message, by the publishing thread.
     */
    private int maxPerTransaction;
    /** The first failure that left a producer unusable; the stream fails with it once both are. */
    private volatile RuntimeException broken;

    /**
     * @param producers makes the producer of each transactional id, not yet initialised; called again
     *                  for a producer a failed commit left unusable
     * @param ids       the stream's two transactional ids, one per producer
     */
    TransactionalPublisher(Function<String, ? extends Producer<byte[], byte[]>> producers, String[] ids,
                           String topic, AckListener acks, KafkaTransactions size, byte[][] keys, String threadName) {
        this.topic = topic;
        this.acks = acks;
        this.size = size;
        this.keys = keys;
        this.maxPerTransaction = size.messages() > 0 ? size.messages() : Integer.MAX_VALUE;
        this.slots = new Slot[ids.length];
        for (int i = 0; i < ids.length; i++) {
            String id = ids[i];
            slots[i] = new Slot(id, () -> producers.apply(id));
        }
        this.committers = Executors.newFixedThreadPool(ids.length, daemon(threadName + "-commit"));
        this.timer = size.time() == null ? null : Executors.newSingleThreadScheduledExecutor(daemon(threadName + "-timer"));
        try {
            for (Slot slot : slots) {
                slot.start();
            }
        } catch (RuntimeException e) {
            closeQuietly(e);
            throw e;
        }
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) throws InterruptedException {
        send(new ProducerRecord<>(topic, message), sequence, intendedSendNanos);
    }

    @Override
    public void publish(byte[] message, int key, long sequence, long intendedSendNanos) throws InterruptedException {
        send(new ProducerRecord<>(topic, keys[key], message), sequence, intendedSendNanos);
    }

    private void send(ProducerRecord<byte[], byte[]> record, long sequence, long intendedSendNanos)
            throws InterruptedException {
        lock.lock();
        try {
            Transaction t = open;
            if (t == null) {
                t = begin(intendedSendNanos);
            }
            t.add(sequence, intendedSendNanos);
            Transaction sentIn = t;
            try {
                t.slot.producer.send(record, (metadata, error) -> {
                    if (error != null) {
                        sentIn.failSend(error);
                    }
                });
            } catch (KafkaException e) {
                // a producer in an error state refuses at once: the transaction fails at its commit, with this
                sentIn.failSend(e);
            }
            if (t.count >= maxPerTransaction) {
                closeOpen();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The stream waits for commits at {@code maxOutstanding}: each producer's transaction takes at
     * most its share of the limit, so that a commit leaves room for the other's sends.
     */
    @Override
    public void outstandingLimit(int maxOutstanding) {
        closesWhenWaiting = true;
        maxPerTransaction = Math.min(maxPerTransaction, Math.max(1, maxOutstanding / slots.length));
    }

    /**
     * Where the stream waits for acknowledgements (throughput's --max-outstanding), a transaction
     * also closes at that limit: its messages are acknowledged only by the commit, so waiting for
     * them with the transaction open would wait forever. On a schedule the transaction stays open
     * across the waits for the next message.
     */
    @Override
    public void endOfBurst() {
        if (!closesWhenWaiting) {
            return;
        }
        lock.lock();
        try {
            if (open != null) {
                closeOpen();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: a free producer begins the next transaction, waiting while both commit. */
    private Transaction begin(long firstIntendedSendNanos) throws InterruptedException {
        Slot slot;
        while ((slot = freeSlot()) == null) {
            if (broken != null && allBroken()) {
                throw broken;
            }
            // both are committing: the send waits, and the engine measures the wait as send delay
            slotFree.await();
        }
        slot.busy = true;
        slot.producer.beginTransaction();
        Transaction t = new Transaction(slot, ++begun, firstIntendedSendNanos);
        open = t;
        if (timer != null) {
            timer.schedule(() -> closeByTime(t), size.time().toNanos(), TimeUnit.NANOSECONDS);
        }
        return t;
    }

    private Slot freeSlot() {
        for (Slot slot : slots) {
            if (!slot.busy && slot.producer != null) {
                return slot;
            }
        }
        return null;
    }

    private boolean allBroken() {
        return Arrays.stream(slots).allMatch(s -> s.producer == null);
    }

    private void closeByTime(Transaction t) {
        lock.lock();
        try {
            if (open == t) {
                closeOpen();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: the open transaction takes no more sends and goes to be committed or aborted. */
    private void closeOpen() {
        Transaction t = open;
        open = null;
        committers.execute(() -> finish(t));
    }

    /** On a commit thread: commits or aborts, settles the transaction's messages, then frees its producer. */
    private void finish(Transaction t) {
        try {
            settle(t);
        } finally {
            lock.lock();
            try {
                t.slot.busy = false;
                slotFree.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private void settle(Transaction t) {
        boolean abort = size.abortEvery() > 0 && t.number % size.abortEvery() == 0;
        Producer<byte[], byte[]> producer = t.slot.producer;
        RuntimeException error = null;
        long start = System.nanoTime();
        try {
            if (t.sendError != null) {
                // Kafka refuses the commit of a transaction with a failed send; aborting says so sooner
                throw new KafkaException("a send of the transaction failed", t.sendError);
            }
            if (abort) {
                producer.abortTransaction();
            } else {
                producer.commitTransaction();
            }
        } catch (RuntimeException e) {
            error = e;
        }
        long took = System.nanoTime() - start;
        for (int i = 0; i < t.count; i++) {
            if (error != null) {
                acks.failed(t.sequences[i], t.intended[i], error);
            } else if (abort) {
                acks.aborted(t.sequences[i], t.intended[i]);
            } else {
                acks.acked(t.sequences[i], t.intended[i]);
            }
        }
        if (error == null && !abort) {
            acks.committed(t.firstIntendedSendNanos, took);
        }
        if (error != null) {
            t.slot.recover(error);
        }
    }

    /** Commits the open transaction and returns once every commit has returned. */
    @Override
    public void flush() throws InterruptedException {
        lock.lock();
        try {
            if (open != null) {
                closeOpen();
            }
            while (Arrays.stream(slots).anyMatch(s -> s.busy)) {
                slotFree.await();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() throws Exception {
        closeQuietly(null);
    }

    private void closeQuietly(Exception pending) {
        if (timer != null) {
            timer.shutdownNow();
        }
        committers.shutdown();
        try {
            if (!committers.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                committers.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Slot slot : slots) {
            Producer<byte[], byte[]> producer = slot.producer;
            if (producer != null) {
                try {
                    // an open transaction the run never committed is aborted by the broker when the producer goes
                    producer.close(CLOSE_TIMEOUT);
                } catch (RuntimeException e) {
                    if (pending != null) {
                        pending.addSuppressed(e);
                    } else {
                        throw e;
                    }
                }
            }
        }
    }

    /** The stream's transactional ids: two per stream, unique to the run. */
    static String[] ids(String runId, int streamId) {
        return new String[] {runId + "-txn-" + streamId + "-a", runId + "-txn-" + streamId + "-b"};
    }

    /** One transactional producer of the stream. */
    private final class Slot {
        final String id;
        final Supplier<Producer<byte[], byte[]>> factory;
        /** Null once it could not be made usable again. */
        volatile Producer<byte[], byte[]> producer;
        /** Its transaction is open or committing. Under the lock. */
        boolean busy;

        Slot(String id, Supplier<Producer<byte[], byte[]>> factory) {
            this.id = id;
            this.factory = factory;
        }

        void start() {
            Producer<byte[], byte[]> made = factory.get();
            try {
                made.initTransactions();
            } catch (RuntimeException e) {
                made.close(Duration.ZERO);
                throw e;
            }
            producer = made;
        }

        /**
         * After a failed commit: abort what is left of the transaction, or where the producer cannot
         * (fenced, or in a fatal state), a new producer under the same id, whose initTransactions
         * finishes whatever the old one left on the broker. Tried again for a while: during a
         * broker's failover the coordinator may be away for seconds.
         */
        void recover(RuntimeException cause) {
            try {
                producer.abortTransaction();
                return;
            } catch (RuntimeException e) {
                cause.addSuppressed(e);
            }
            producer.close(Duration.ZERO);
            producer = null;
            long deadline = System.nanoTime() + RECOVER_NANOS;
            while (System.nanoTime() < deadline && !committers.isShutdown()) {
                try {
                    start();
                    return;
                } catch (RuntimeException e) {
                    cause.addSuppressed(e);
                }
                try {
                    // a coordinator that refused at once is not asked again in a spin
                    Thread.sleep(RETRY_PAUSE_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            broken = cause;
        }
    }

    /** One transaction: its producer and the messages sent in it, in order. */
    private static final class Transaction {
        final Slot slot;
        final long number;
        final long firstIntendedSendNanos;
        long[] sequences = new long[64];
        long[] intended = new long[64];
        /** Written by the publishing thread under the lock; read by the commit thread after the hand-over. */
        int count;
        volatile Exception sendError;

        Transaction(Slot slot, long number, long firstIntendedSendNanos) {
            this.slot = slot;
            this.number = number;
            this.firstIntendedSendNanos = firstIntendedSendNanos;
        }

        void add(long sequence, long intendedSendNanos) {
            if (count == sequences.length) {
                sequences = Arrays.copyOf(sequences, count * 2);
                intended = Arrays.copyOf(intended, count * 2);
            }
            sequences[count] = sequence;
            intended[count] = intendedSendNanos;
            count++;
        }

        void failSend(Exception error) {
            if (sendError == null) {
                sendError = error;
            }
        }
    }
}
