package dev.msgbench.core.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

import org.junit.jupiter.api.Test;

class PayloadHeaderTest {

    private static final int RUN_KEY = 0x1234_5678;

    @Test
    void headerFieldsReadBackFromAnArrayAtAnyOffset() {
        byte[] message = new byte[64];
        PayloadHeader.write(message, RUN_KEY, 7, 123_456_789_012L, -5L);
        PayloadHeader.stampSendTime(message, Long.MAX_VALUE);
        byte[] shifted = new byte[80];
        System.arraycopy(message, 0, shifted, 9, 64);

        assertTrue(PayloadHeader.isOfRun(shifted, 9, 64, RUN_KEY));
        assertEquals(7, PayloadHeader.streamId(shifted, 9));
        assertEquals(123_456_789_012L, PayloadHeader.sequence(shifted, 9));
        assertEquals(-5L, PayloadHeader.intendedNanos(shifted, 9));
        assertEquals(Long.MAX_VALUE, PayloadHeader.sentNanos(shifted, 9));
    }

    @Test
    void headerFieldsReadBackFromHeapAndDirectBuffersAtTheirPosition() {
        byte[] message = new byte[40];
        PayloadHeader.write(message, RUN_KEY, 3, 99, 1_000);
        PayloadHeader.stampSendTime(message, 2_000);
        for (ByteBuffer buffer : new ByteBuffer[] {ByteBuffer.allocate(50), ByteBuffer.allocateDirect(50)}) {
            buffer.position(5);
            buffer.put(message);
            buffer.position(5);
            assertTrue(PayloadHeader.isOfRun(buffer, RUN_KEY));
            assertEquals(3, PayloadHeader.streamId(buffer));
            assertEquals(99, PayloadHeader.sequence(buffer));
            assertEquals(1_000, PayloadHeader.intendedNanos(buffer));
            assertEquals(2_000, PayloadHeader.sentNanos(buffer));
            assertEquals(5, buffer.position());
        }
    }

    @Test
    void messagesOfAnotherRunOrTooShortAreNotRecognised() {
        byte[] message = new byte[32];
        PayloadHeader.write(message, RUN_KEY, 0, 0, 0);
        assertFalse(PayloadHeader.isOfRun(message, 0, 32, RUN_KEY + 1));
        assertFalse(PayloadHeader.isOfRun(message, 0, 31, RUN_KEY));
    }

    @Test
    void randomBodiesDifferBetweenMessagesAndLeaveTheHeaderAlone() {
        RandomPayloads payloads = new RandomPayloads(1024, 1);
        BodySource bodies = payloads.source(2);
        byte[] a = payloads.newMessage();
        PayloadHeader.write(a, RUN_KEY, 1, 2, 3);
        bodies.refill(a);
        byte[] firstBody = java.util.Arrays.copyOfRange(a, PayloadHeader.BYTES, 1024);
        bodies.refill(a);
        assertNotEquals(ByteBuffer.wrap(firstBody), ByteBuffer.wrap(a, PayloadHeader.BYTES, 1024 - PayloadHeader.BYTES));
        assertTrue(PayloadHeader.isOfRun(a, 0, a.length, RUN_KEY));
        assertEquals(2, PayloadHeader.sequence(a, 0));
    }

    @Test
    void aBatchOfPayloadsDoesNotCompress() throws Exception {
        RandomPayloads payloads = new RandomPayloads(1024, 3);
        BodySource bodies = payloads.source(4);
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        int raw = 0;
        try (DeflaterOutputStream out = new DeflaterOutputStream(compressed, new Deflater(Deflater.BEST_COMPRESSION))) {
            byte[] message = payloads.newMessage();
            for (int i = 0; i < 256; i++) {
                bodies.refill(message);
                PayloadHeader.write(message, RUN_KEY, 0, i, i);
                out.write(message);
                raw += message.length;
            }
        }
        assertTrue(compressed.size() > raw * 0.97, "compressed " + raw + " bytes to " + compressed.size());
    }

    @Test
    void aLongBatchOfSmallBodiesDoesNotCompressEither() throws Exception {
        RandomPayloads payloads = new RandomPayloads(100, 5);
        BodySource bodies = payloads.source(6);
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        int raw = 0;
        try (DeflaterOutputStream out = new DeflaterOutputStream(compressed, new Deflater(Deflater.BEST_COMPRESSION))) {
            byte[] message = payloads.newMessage();
            // 8,000 bodies of 68 bytes: a long batch of small messages
            for (int i = 0; i < 8_000; i++) {
                bodies.refill(message);
                out.write(message, PayloadHeader.BYTES, message.length - PayloadHeader.BYTES);
                raw += message.length - PayloadHeader.BYTES;
            }
        }
        assertTrue(compressed.size() > raw * 0.99, "compressed " + raw + " bytes to " + compressed.size());
    }
}
