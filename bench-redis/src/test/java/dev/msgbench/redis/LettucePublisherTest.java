package dev.msgbench.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.driver.AckListener;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * How a lettuce publisher settles a message once its last reply has come, whatever its command:
 * the in-flight permit is free before the listener hears, a lost message is reported with any
 * --acks, a success is counted only when the replies are. No broker: the connection is a stand-in
 * that nothing is written to.
 */
class LettucePublisherTest {

    private static final IllegalStateException LOST = new IllegalStateException("connection closed");

    @Test
    void aMessageAnsweredWithoutErrorIsAcknowledgedOnlyWhenTheRepliesAreCounted() throws Exception {
        assertEquals(List.of("acked 7 70, permit free"), heardWhenAnswered(RedisAcks.SERVER, null));
        assertEquals(List.of("acked 7 70, permit free"), heardWhenAnswered(RedisAcks.REPLICAS, null));
        assertEquals(List.of(), heardWhenAnswered(RedisAcks.NONE, null));
    }

    @Test
    void aLostMessageIsReportedWithItsErrorEvenWithAcksZero() throws Exception {
        for (RedisAcks mode : RedisAcks.values()) {
            assertEquals(List.of("failed 7 70 connection closed, permit free"), heardWhenAnswered(mode, LOST),
                    mode.toString());
        }
    }

    @Test
    void aReplyThatDoesNotAcknowledgeReportsTheMessageFailedWithWhy() throws Exception {
        Settling publisher = new Settling(RedisAcks.SERVER);
        publisher.publish(new byte[8], 4, 40);
        publisher.unacknowledged(4, 40, new IllegalStateException("PUBLISH to run:0 reached no subscriber"));
        assertEquals(List.of("failed 4 40 PUBLISH to run:0 reached no subscriber, permit free"), publisher.heard);
    }

    /** What the listener hears when one message is answered with {@code error} (null: it succeeded). */
    private static List<String> heardWhenAnswered(RedisAcks mode, Throwable error) throws Exception {
        Settling publisher = new Settling(mode);
        publisher.publish(new byte[8], 7, 70);
        publisher.answered(7, 70, error);
        return publisher.heard;
    }

    /** Takes a permit per message, as the publishers do, and writes nothing; its listener notes what it hears. */
    private static final class Settling extends LettucePublisher {

        final List<String> heard;

        Settling(RedisAcks mode) {
            this(mode, new InFlight(1), new ArrayList<>());
        }

        private Settling(RedisAcks mode, InFlight inFlight, List<String> heard) {
            super(new ProducerConnection(nothingWritten()), new AckListener() {
                @Override
                public void acked(long sequence, long intendedSendNanos) {
                    heard.add("acked " + sequence + " " + intendedSendNanos + permit(inFlight));
                }

                @Override
                public void failed(long sequence, long intendedSendNanos, Throwable error) {
                    heard.add("failed " + sequence + " " + intendedSendNanos + " " + error.getMessage()
                            + permit(inFlight));
                }
            }, mode, inFlight);
            this.heard = heard;
        }

        /** Whether the message's permit was freed before the listener heard (and gives it back). */
        private static String permit(InFlight inFlight) {
            if (!inFlight.tryAcquire()) {
                return ", permit still taken";
            }
            inFlight.release();
            return ", permit free";
        }

        @Override
        public void publish(byte[] message, long sequence, long intendedSendNanos) throws InterruptedException {
            batch.acquire();
        }

        @SuppressWarnings("unchecked")
        private static StatefulRedisConnection<byte[], byte[]> nothingWritten() {
            return (StatefulRedisConnection<byte[], byte[]>) Proxy.newProxyInstance(
                    LettucePublisherTest.class.getClassLoader(), new Class<?>[] {StatefulRedisConnection.class},
                    (proxy, method, args) -> null);
        }
    }
}
