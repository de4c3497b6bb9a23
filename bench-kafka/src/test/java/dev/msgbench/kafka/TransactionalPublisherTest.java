package dev.msgbench.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.driver.AckListener;

/**
 * Where each transaction of a stream closes, against Kafka's MockProducer (each send completed at
 * once, each commit returning at once): the broker's side is KafkaSystemTest's and the end-to-end
 * tests'. Transactions closed by time are given a minute, so that none closes by time here.
 */
@Timeout(30)
class TransactionalPublisherTest {

    private static final KafkaTransactions BY_TIME = new KafkaTransactions(0, Duration.ofSeconds(50), 0);

    /** The size of every transaction committed, in the order the commits were made. */
    private final List<Integer> committedSizes = Collections.synchronizedList(new ArrayList<>());
    private final List<Long> acked = Collections.synchronizedList(new ArrayList<>());

    private final AckListener acks = new AckListener() {
        @Override
        public void acked(long sequence, long intendedSendNanos) {
            acked.add(sequence);
        }

        @Override
        public void failed(long sequence, long intendedSendNanos, Throwable error) {
            throw new AssertionError("message " + sequence + " failed", error);
        }
    };

    /** A MockProducer that notes how many records each of its transactions had when committed. */
    private final class CountingProducer extends MockProducer<byte[], byte[]> {
        private int inTransaction;

        CountingProducer() {
            super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        }

        @Override
        public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
            inTransaction++;
            return super.send(record, callback);
        }

        @Override
        public void commitTransaction() {
            committedSizes.add(inTransaction);
            inTransaction = 0;
            super.commitTransaction();
        }
    }

    private TransactionalPublisher publisher(KafkaTransactions size) {
        return new TransactionalPublisher(id -> new CountingProducer(), TransactionalPublisher.ids("run", 0), "run", acks,
                size, null, "test-txn");
    }

    private static void publish(TransactionalPublisher publisher, int messages) throws InterruptedException {
        for (int i = 0; i < messages; i++) {
            publisher.publish(new byte[32], i, i);
        }
    }

    private List<Integer> sortedSizes() {
        List<Integer> sizes = new ArrayList<>(committedSizes);
        Collections.sort(sizes);
        return sizes;
    }

    /**
     * At a limit of 10 outstanding messages, each producer's transaction takes at most 5: while one
     * commits, the other has room for its sends. The two commits may return in either order.
     */
    @Test
    void underALimitOfOutstandingMessagesEachTransactionTakesAtMostHalfOfIt() throws Exception {
        try (TransactionalPublisher publisher = publisher(BY_TIME)) {
            publisher.outstandingLimit(10);
            publish(publisher, 12);
            publisher.flush();
        }
        assertEquals(List.of(2, 5, 5), sortedSizes());
        assertEquals(12, acked.size());
    }

    /** --transactions' own count stays the size where it is the smaller; half the limit where that is. */
    @Test
    void aTransactionOfACountClosesAtTheCountOrAtHalfTheLimitWhicheverIsSmaller() throws Exception {
        try (TransactionalPublisher publisher = publisher(KafkaTransactions.parse("3", 0))) {
            publisher.outstandingLimit(100);
            publish(publisher, 7);
            publisher.flush();
        }
        assertEquals(List.of(1, 3, 3), sortedSizes());
        committedSizes.clear();
        try (TransactionalPublisher publisher = publisher(KafkaTransactions.parse("3", 0))) {
            publisher.outstandingLimit(4);
            publish(publisher, 7);
            publisher.flush();
        }
        assertEquals(List.of(1, 2, 2, 2), sortedSizes());
    }

    /** Waiting at the limit closes the open transaction: its messages are acknowledged only by its commit. */
    @Test
    void theEndOfABurstUnderALimitClosesTheOpenTransaction() throws Exception {
        try (TransactionalPublisher publisher = publisher(BY_TIME)) {
            publisher.outstandingLimit(100);
            publish(publisher, 3);
            publisher.endOfBurst();
            publish(publisher, 2);
            publisher.flush();
        }
        assertEquals(List.of(2, 3), sortedSizes());
    }

    /** On a schedule (no limit) a transaction closed by time takes every send until then, bursts or not. */
    @Test
    void withoutALimitATransactionClosedByTimeStaysOpenAcrossBursts() throws Exception {
        try (TransactionalPublisher publisher = publisher(BY_TIME)) {
            publish(publisher, 3);
            publisher.endOfBurst();
            publish(publisher, 20);
            publisher.flush();
        }
        assertEquals(List.of(23), sortedSizes());
    }
}
