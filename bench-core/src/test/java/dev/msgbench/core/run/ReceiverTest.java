package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.record.StreamSnapshot;
import dev.msgbench.core.testing.ManualClock;

class ReceiverTest {

    private static final long MILLI = 1_000_000;
    private static final int RUN_KEY = 7;

    private final ManualClock clock = new ManualClock(0);
    private final Recorders recorders = new Recorders();
    private final Accounting accounting = new Accounting(1, 1, 1, true);
    private final Receiver receiver = new Receiver(clock, RUN_KEY, accounting, recorders, 64);

    /** Every test's messages arrive from 10 ms into a run that started at 0. */
    @BeforeEach
    void startTheRunTenMillisecondsAgo() {
        receiver.start(new RunWindow(0, 0, 100 * MILLI));
        clock.advance(10 * MILLI);
    }

    /** Sent at 0 and 1 ms; received together (one poll) at 10 ms, handed to the sink at 11 and 12 ms. */
    @Test
    void messagesHandedOverTogetherAreReceivedWhenTheClientGaveThemUp() {
        long received = receiver.receivedNow();
        for (int i = 0; i < 2; i++) {
            clock.advance(MILLI); // the load generator's own time on the message before
            receiver.onMessage(message(i, i * MILLI), 0, received);
        }
        Histogram latency = measuredLatencies();
        assertEquals(2, latency.getTotalCount());
        assertEquals(9 * MILLI, latency.getMinValue(), MILLI / 100);
        assertEquals(10 * MILLI, latency.getMaxValue(), MILLI / 100);
    }

    /** One message alone is received when the sink has it. */
    @Test
    void aMessageHandedOverAloneIsReceivedWhenTheSinkHasIt() {
        receiver.onMessage(message(0, 0), 0);
        clock.advance(3 * MILLI);
        receiver.onMessage(message(1, MILLI), 0);
        Histogram latency = measuredLatencies();
        assertEquals(10 * MILLI, latency.getMinValue(), MILLI / 100);
        assertEquals(12 * MILLI, latency.getMaxValue(), MILLI / 100);
    }

    /**
     * One poll's records handed over in one call: each counted and recorded as if passed one by
     * one at the poll's receive time, a copy counted as a duplicate and a stranger as foreign.
     */
    @Test
    void messagesHandedOverInOneCallAreEachAccountedAtTheirReceiveTime() {
        long received = receiver.receivedNow();
        ByteBuffer stranger = ByteBuffer.wrap(new byte[64]);
        List<ByteBuffer> poll = List.of(message(0, 0), message(1, MILLI), message(1, MILLI), stranger,
                message(2, 4 * MILLI));
        clock.advance(5 * MILLI); // the load generator's own time before it reads them
        receiver.onMessages(poll, Function.identity(), 0, received);

        Histogram latency = measuredLatencies();
        assertEquals(3, latency.getTotalCount());
        assertEquals(6 * MILLI, latency.getMinValue(), MILLI / 100);
        assertEquals(10 * MILLI, latency.getMaxValue(), MILLI / 100);
        StreamSnapshot stream = accounting.perStream().get(0);
        assertEquals(3, stream.received());
        assertEquals(1, stream.duplicated());
        assertEquals(1, accounting.foreign());
        assertEquals(10 * MILLI, receiver.firstReceiveNanos());
        assertEquals(10 * MILLI, receiver.lastReceiveNanos());
    }

    /**
     * The histograms' section a call opened is closed again: the next message alone records as
     * usual, and a sample does not wait forever (the timeout only guards against a hang).
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aMessageAfterOnesHandedOverTogetherIsRecordedOnItsOwn() {
        receiver.onMessages(List.of(message(0, 0)), Function.identity(), 0, receiver.receivedNow());
        assertEquals(1, measuredLatencies().getTotalCount());
        clock.advance(MILLI);
        receiver.onMessage(message(1, MILLI), 0);
        Histogram latency = measuredLatencies();
        assertEquals(1, latency.getTotalCount());
        assertEquals(10 * MILLI, latency.getMaxValue(), MILLI / 100);
        assertEquals(11 * MILLI, receiver.lastReceiveNanos());
    }

    /**
     * A poll larger than any before, draining a backlog (each record younger than the one before):
     * every record is recorded once, in its phase, with the poll's extremes as minimum and maximum.
     */
    @Test
    void aLargePollIsRecordedWholeEachMessageInItsPhase() {
        Recorders ownRecorders = new Recorders();
        Receiver warmingUp = new Receiver(clock, RUN_KEY, new Accounting(1, 1, 1, true), ownRecorders, 64);
        warmingUp.start(new RunWindow(0, 2 * MILLI, 100 * MILLI)); // measured from 2 ms
        List<ByteBuffer> poll = new ArrayList<>();
        int messages = 3_000;
        for (int i = 0; i < messages; i++) {
            poll.add(message(i, i * 1_000L)); // one every microsecond: 0 to 2.999 ms
        }
        warmingUp.onMessages(poll, Function.identity(), 0, warmingUp.receivedNow());

        Recorders.Interval interval = ownRecorders.drainInterval();
        Histogram all = interval.all(HistogramKind.LATENCY);
        Histogram measured = interval.measured(HistogramKind.LATENCY);
        assertEquals(messages, all.getTotalCount());
        assertEquals(messages, interval.all(HistogramKind.SERVICE).getTotalCount());
        assertEquals(1_000, measured.getTotalCount(), "intended from 2 ms on");
        assertEquals(10 * MILLI, all.getMaxValue(), MILLI / 100);
        assertEquals(7.001 * MILLI, all.getMinValue(), MILLI / 100);
        assertEquals(8 * MILLI, measured.getMaxValue(), MILLI / 100);
    }

    /** The latencies recorded since the last call. */
    private Histogram measuredLatencies() {
        return recorders.drainInterval().measured(HistogramKind.LATENCY);
    }

    private static ByteBuffer message(long sequence, long intendedNanos) {
        byte[] bytes = new byte[64];
        PayloadHeader.write(bytes, RUN_KEY, 0, sequence, intendedNanos);
        PayloadHeader.stampSendTime(bytes, intendedNanos);
        return ByteBuffer.wrap(bytes);
    }
}
