package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.testing.ManualClock;

class ReceiverTest {

    private static final long MILLI = 1_000_000;
    private static final int RUN_KEY = 7;

    private final ManualClock clock = new ManualClock(0);
    private final Recorders recorders = new Recorders();
    private final Receiver receiver = new Receiver(clock, RUN_KEY, new Accounting(1, 1, 1, true), recorders, 64);

    /** Sent at 0 and 1 ms; received together (one poll) at 10 ms, handed to the sink at 11 and 12 ms. */
    @Test
    void messagesHandedOverTogetherAreReceivedWhenTheClientGaveThemUp() {
        receiver.start(new RunWindow(0, 0, 100 * MILLI));
        clock.advance(10 * MILLI);
        long received = receiver.receivedNow();
        for (int i = 0; i < 2; i++) {
            clock.advance(MILLI); // the load generator's own time on the message before
            receiver.onMessage(message(i, i * MILLI), 0, received);
        }
        Histogram latency = recorders.drainInterval().measured(HistogramKind.LATENCY);
        assertEquals(2, latency.getTotalCount());
        assertEquals(9 * MILLI, latency.getMinValue(), MILLI / 100);
        assertEquals(10 * MILLI, latency.getMaxValue(), MILLI / 100);
    }

    /** One message alone is received when the sink has it. */
    @Test
    void aMessageHandedOverAloneIsReceivedWhenTheSinkHasIt() {
        receiver.start(new RunWindow(0, 0, 100 * MILLI));
        clock.advance(10 * MILLI);
        receiver.onMessage(message(0, 0), 0);
        clock.advance(3 * MILLI);
        receiver.onMessage(message(1, MILLI), 0);
        Histogram latency = recorders.drainInterval().measured(HistogramKind.LATENCY);
        assertEquals(10 * MILLI, latency.getMinValue(), MILLI / 100);
        assertEquals(12 * MILLI, latency.getMaxValue(), MILLI / 100);
    }

    private static ByteBuffer message(long sequence, long intendedNanos) {
        byte[] bytes = new byte[64];
        PayloadHeader.write(bytes, RUN_KEY, 0, sequence, intendedNanos);
        PayloadHeader.stampSendTime(bytes, intendedNanos);
        return ByteBuffer.wrap(bytes);
    }
}
