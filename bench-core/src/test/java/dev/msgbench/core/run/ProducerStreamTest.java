package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.payload.RandomPayloads;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.time.UniformSchedule;

class ProducerStreamTest {

    private static final long MS = 1_000_000;

    private final ManualClock clock = new ManualClock(0);
    private final List<long[]> sends = new ArrayList<>(); // {sequence, intended, stamped send time}

    private Publisher blockingAt(long sequence, long blockNanos) {
        return new Publisher() {
            @Override
            public void publish(byte[] message, long seq, long intended) {
                sends.add(new long[] {seq, intended, PayloadHeader.sentNanos(message, 0)});
                if (seq == sequence) {
                    clock.advance(blockNanos); // the client blocks, as with a full buffer
                }
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void messagesGoOutAtTheirIntendedTimesAndABlockedClientDelaysButNeverReschedules() {
        Accounting accounting = new Accounting(1);
        Recorders recorders = new Recorders();
        RunWindow window = new RunWindow(0, 0, 10 * MS);
        ProducerStream stream = new ProducerStream(1, 0, StreamPlan.fixed(new UniformSchedule(0, 1_000), window.endNanos()),
                blockingAt(2, 3_500_000), new RandomPayloads(64, 1), 1, clock, accounting, recorders, window, 1_000 * MS, 0);
        stream.run();

        assertEquals(10, sends.size());
        for (int i = 0; i < 10; i++) {
            assertEquals(i, sends.get(i)[0]);
            assertEquals(i * MS, sends.get(i)[1], "intended time of message " + i);
        }
        // message 2 blocked the client until 5.5 ms: 3, 4 and 5 go out late, back to back
        assertEquals(5_500_000, sends.get(3)[2]);
        assertEquals(5_500_000, sends.get(4)[2]);
        assertEquals(5_500_000, sends.get(5)[2]);
        assertEquals(6 * MS, sends.get(6)[2]);
        assertEquals(10, accounting.total().sent());
        assertEquals(0, stream.unsent());
        assertEquals(2_500_000, stream.maxBehindNanos());
        org.HdrHistogram.Histogram sendDelay = recorders.drainInterval().measured(HistogramKind.SEND_DELAY);
        assertEquals(10, sendDelay.getTotalCount());
        assertEquals(2_500_000, sendDelay.getMaxValue(), 2_500_000 / 1000.0);
    }

    @Test
    void aStreamTooFarBehindStopsAtTheGiveUpTimeAndCountsWhatItCouldNotSend() {
        Accounting accounting = new Accounting(1);
        RunWindow window = new RunWindow(0, 0, 10 * MS);
        ProducerStream stream = new ProducerStream(1, 0, StreamPlan.fixed(new UniformSchedule(0, 1_000), window.endNanos()),
                blockingAt(1, 20 * MS), new RandomPayloads(64, 1), 1, clock, accounting, new Recorders(), window, 15 * MS, 0);
        stream.run();

        // the give-up check reads the time of the last send, not the clock: the message after
        // the one that blocked past the give-up time still goes out, and then the stream stops
        assertEquals(3, sends.size());
        assertEquals(7, stream.unsent());
    }

    @Test
    void anUnpacedStreamWaitsForTheStartSoThatAShortRunIsMeasuredWhole() {
        Recorders recorders = new Recorders();
        RunWindow window = new RunWindow(50 * MS, 50 * MS, 1_000 * MS);
        ProducerStream stream = new ProducerStream(1, 0, StreamPlan.unpaced(5, window.startNanos(), window.endNanos()),
                blockingAt(-1, 0), new RandomPayloads(64, 1), 1, clock, new Accounting(1), recorders, window, 2_000 * MS, 0);
        stream.run();

        assertEquals(5, sends.size());
        assertEquals(50 * MS, sends.get(0)[1], "not before the start, though the thread began at 0");
        assertEquals(50 * MS, sends.get(0)[2]);
        assertEquals(5, stream.measuredSent());
        assertEquals(5, recorders.drainInterval().measured(HistogramKind.SEND_DELAY).getTotalCount());
    }

    @Test
    void warmUpSendsAreRecordedApartFromMeasuredOnes() {
        Recorders recorders = new Recorders();
        RunWindow window = new RunWindow(0, 4 * MS, 10 * MS);
        new ProducerStream(1, 0, StreamPlan.fixed(new UniformSchedule(0, 1_000), window.endNanos()), blockingAt(-1, 0),
                new RandomPayloads(64, 1), 1, clock, new Accounting(1), recorders, window, 1_000 * MS, 0).run();
        Recorders.Interval interval = recorders.drainInterval();
        assertEquals(10, interval.all(HistogramKind.SEND_DELAY).getTotalCount());
        assertEquals(6, interval.measured(HistogramKind.SEND_DELAY).getTotalCount());
    }
}
