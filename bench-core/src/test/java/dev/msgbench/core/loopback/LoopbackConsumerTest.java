package dev.msgbench.core.loopback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.driver.MessageSink;

@Timeout(10)
class LoopbackConsumerTest {

    @Test
    void anInterruptEndsTheConsumerLoopAndTheFlagStaysForTheThreadsOwner() throws Exception {
        BlockingQueue<byte[]> queue = new ArrayBlockingQueue<>(4);
        queue.put(new byte[] {1});
        queue.put(new byte[] {2});
        List<Byte> delivered = new ArrayList<>();
        // close() interrupts the consumer thread; here it happens while the first message is handed over
        MessageSink closedDuringTheFirstMessage = new MessageSink() {
            @Override
            public void onMessage(byte[] data, int offset, int length, int lane) {
                delivered.add(data[offset]);
                Thread.currentThread().interrupt();
            }

            @Override
            public void onMessage(ByteBuffer data, int lane) {
                throw new AssertionError("the loopback hands over arrays");
            }

            @Override
            public void onError(Throwable error) {
                throw new AssertionError(error);
            }
        };

        LoopbackConsumer.consume(queue, closedDuringTheFirstMessage);

        assertTrue(Thread.interrupted(), "the interrupt is kept");
        assertEquals(List.of((byte) 1), delivered);
        assertEquals(1, queue.size(), "the second message is left where it was");
    }
}
