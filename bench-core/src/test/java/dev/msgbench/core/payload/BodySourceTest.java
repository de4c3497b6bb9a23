package dev.msgbench.core.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class BodySourceTest {

    @Test
    void bodiesStayDistinctAcrossTheEndOfThePool() {
        // 1 MiB messages: the pool holds 16, so 40 messages start over in it twice
        RandomPayloads payloads = new RandomPayloads(1 << 20, 1);
        BodySource bodies = payloads.source(2);
        byte[] message = payloads.newMessage();
        Set<ByteBuffer> seen = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            bodies.refill(message);
            seen.add(ByteBuffer.wrap(message.clone(), PayloadHeader.BYTES, message.length - PayloadHeader.BYTES));
        }
        assertEquals(40, seen.size());
    }

    @Test
    void streamsWithTheirOwnSeedsGetDifferentBodies() {
        RandomPayloads payloads = new RandomPayloads(1024, 3);
        byte[] a = payloads.newMessage();
        byte[] b = payloads.newMessage();
        payloads.source(4).refill(a);
        payloads.source(5).refill(b);
        assertNotEquals(ByteBuffer.wrap(a), ByteBuffer.wrap(b));
    }

    @Test
    void aMessageOfHeaderOnlyKeepsItsHeader() {
        RandomPayloads payloads = new RandomPayloads(PayloadHeader.BYTES, 6);
        byte[] message = payloads.newMessage();
        PayloadHeader.write(message, 9, 1, 2, 3);
        payloads.source(7).refill(message);
        assertEquals(2, PayloadHeader.sequence(message, 0));
    }
}
