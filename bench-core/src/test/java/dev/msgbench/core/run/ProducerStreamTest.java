package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
        ProducerStream stream = new ProducerStream(1, 0, StreamPlan.fixed(new UniformSchedule(0, 1_000), window),
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

    /**
     * Records publishes as "p<sequence>@<clock>" and bursts' ends as "end@<clock>"; with
     * {@code accounting}, acknowledges every message only at the end of a burst, as a client that
     * holds written messages back until then would.
     */
    private Publisher batching(List<String> events, Accounting accounting, long blockAt, long blockNanos) {
        return new Publisher() {
            private int held;
            private long acknowledged;

            @Override
            public void publish(byte[] message, long seq, long intended) {
                events.add("p" + seq + "@" + clock.nanoTime());
                held++;
                if (seq == blockAt) {
                    clock.advance(blockNanos);
                }
            }

            @Override
            public void endOfBurst() {
                events.add("end@" + clock.nanoTime());
                for (; held > 0 && accounting != null; held--) {
                    accounting.countAcked(0, acknowledged++);
                }
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void onScheduleTheBurstEndsAfterEveryMessageBeforeTheStreamWaitsForTheNext() {
        List<String> events = new ArrayList<>();
        RunWindow window = new RunWindow(0, 0, 5 * MS);
        new ProducerStream(1, 0, StreamPlan.fixed(new UniformSchedule(0, 1_000), window),
                batching(events, null, -1, 0), new RandomPayloads(64, 1), 1, clock, new Accounting(1), new Recorders(),
                window, 1_000 * MS, 0).run();

        // each end comes at the time of the message before it, not of the one after: nothing waits held back
        assertEquals(List.of("p0@0", "end@0", "p1@1000000", "end@1000000", "p2@2000000", "end@2000000",
                "p3@3000000", "end@3000000", "p4@4000000", "end@4000000"), events);
    }

    @Test
    void behindScheduleMessagesGoOutInOneBurstAndTheBurstEndsOnlyWhenTheStreamCatchesUp() {
        List<String> events = new ArrayList<>();
        RunWindow window = new RunWindow(0, 0, 8 * MS);
        new ProducerStream(1, 0, StreamPlan.fixed(new UniformSchedule(0, 1_000), window),
                batching(events, null, 2, 3_500_000), new RandomPayloads(64, 1), 1, clock, new Accounting(1),
                new Recorders(), window, 1_000 * MS, 0).run();

        // message 2 blocks until 5.5 ms: 3, 4 and 5 are overdue and go out together, 6 is due at 6 ms.
        // The end before 3 is spent: the engine compares 3's time with 2's send time, not the clock.
        assertEquals(List.of("p0@0", "end@0", "p1@1000000", "end@1000000", "p2@2000000", "end@5500000",
                "p3@5500000", "p4@5500000", "p5@5500000", "end@5500000",
                "p6@6000000", "end@6000000", "p7@7000000", "end@7000000"), events);
    }

    @Test
    void anUnpacedStreamEndsItsBurstOnlyBeforeTheStartAndWhenItStops() {
        List<String> events = new ArrayList<>();
        RunWindow window = new RunWindow(50 * MS, 50 * MS, 1_000 * MS);
        new ProducerStream(1, 0, StreamPlan.unpaced(5, window.startNanos(), window.endNanos()),
                batching(events, null, -1, 0), new RandomPayloads(64, 1), 1, clock, new Accounting(1), new Recorders(),
                window, 2_000 * MS, 0).run();

        assertEquals(List.of("end@0", "p0@50000000", "p1@50000000", "p2@50000000", "p3@50000000", "p4@50000000",
                "end@50000000"), events);
    }

    /** Without the end of the burst it would never get below the limit: the manual clock never reaches the give-up time. */
    @Test
    @Timeout(10)
    void anUnpacedStreamAtItsOutstandingLimitEndsTheBurstSoThatTheAcknowledgementsItWaitsForCanCome() {
        List<String> events = new ArrayList<>();
        Accounting accounting = new Accounting(1);
        RunWindow window = new RunWindow(0, 0, 1_000 * MS);
        ProducerStream stream = new ProducerStream(1, 0, StreamPlan.unpaced(7, 0, window.endNanos()),
                batching(events, accounting, -1, 0), new RandomPayloads(64, 1), 1, clock, accounting, new Recorders(),
                window, 2_000 * MS, 3);
        stream.run();

        assertEquals(List.of("p0@0", "p1@0", "p2@0", "end@0", "p3@0", "p4@0", "p5@0", "end@0", "p6@0", "end@0"), events);
        assertEquals(0, stream.unsent(), "no acknowledgement was held back until the give-up time");
        assertEquals(0, accounting.outstanding(0));
    }

    /**
     * A client that reads its replies on the producer's thread acknowledges only when asked to make
     * progress: the stream takes the replies over before its first message and asks while it waits.
     * Without either the stream would reach the give-up time (the manual clock never gets there).
     */
    @Test
    @Timeout(10)
    void anUnpacedStreamThatTookItsRepliesOverReadsThemWhileItWaitsForRoom() {
        List<String> events = new ArrayList<>();
        Accounting accounting = new Accounting(1);
        RunWindow window = new RunWindow(0, 0, 1_000 * MS);
        Publisher readsOnTheProducersThread = new Publisher() {
            private boolean takenOver;
            private long sent;
            private long acknowledged;

            @Override
            public void outstandingLimit(int maxOutstanding) {
                events.add("limit " + maxOutstanding + " before p" + sent);
            }

            @Override
            public boolean takeOverReplies() {
                events.add("take over before p" + sent);
                takenOver = true;
                return true;
            }

            @Override
            public void publish(byte[] message, long seq, long intended) {
                events.add("p" + seq);
                sent++;
            }

            @Override
            public boolean makeProgress() {
                if (!takenOver || acknowledged == sent) {
                    return false;
                }
                events.add("read " + (sent - acknowledged));
                for (; acknowledged < sent; acknowledged++) {
                    accounting.countAcked(0, acknowledged);
                }
                return true;
            }

            @Override
            public void close() {
            }
        };
        ProducerStream stream = new ProducerStream(1, 0, StreamPlan.unpaced(7, 0, window.endNanos()),
                readsOnTheProducersThread, new RandomPayloads(64, 1), 1, clock, accounting, new Recorders(), window,
                2_000 * MS, 3);
        stream.run();

        assertEquals(List.of("limit 3 before p0", "take over before p0", "p0", "p1", "p2", "read 3", "p3", "p4", "p5",
                "read 3", "p6"), events);
        assertEquals(0, stream.unsent(), "every message sent before the give-up time");
    }

    /**
     * A paced stream never waits for acknowledgements, so its client keeps its own reply thread and
     * is told of no limit.
     */
    @Test
    void aPacedStreamLeavesTheRepliesToTheClient() {
        List<String> offers = new ArrayList<>();
        RunWindow window = new RunWindow(0, 0, 5 * MS);
        new ProducerStream(1, 0, StreamPlan.fixed(new UniformSchedule(0, 1_000), window), new Publisher() {
            @Override
            public void outstandingLimit(int maxOutstanding) {
                offers.add("limit " + maxOutstanding);
            }

            @Override
            public boolean takeOverReplies() {
                offers.add("offered");
                return true;
            }

            @Override
            public void publish(byte[] message, long seq, long intended) {
            }

            @Override
            public void close() {
            }
        }, new RandomPayloads(64, 1), 1, clock, new Accounting(1), new Recorders(), window, 10 * MS, 0).run();

        assertEquals(List.of(), offers);
    }

    @Test
    void aStreamTooFarBehindStopsAtTheGiveUpTimeAndCountsWhatItCouldNotSend() {
        Accounting accounting = new Accounting(1);
        RunWindow window = new RunWindow(0, 0, 10 * MS);
        ProducerStream stream = new ProducerStream(1, 0, StreamPlan.fixed(new UniformSchedule(0, 1_000), window),
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
        new ProducerStream(1, 0, StreamPlan.fixed(new UniformSchedule(0, 1_000), window), blockingAt(-1, 0),
                new RandomPayloads(64, 1), 1, clock, new Accounting(1), recorders, window, 1_000 * MS, 0).run();
        Recorders.Interval interval = recorders.drainInterval();
        assertEquals(10, interval.all(HistogramKind.SEND_DELAY).getTotalCount());
        assertEquals(6, interval.measured(HistogramKind.SEND_DELAY).getTotalCount());
    }
    @Test
    void anUnpacedStreamLongerThanABurstSendsEveryMessageInOrderAndEndsItsBurstOnlyAtTheEnd() {
        List<String> events = new ArrayList<>();
        Accounting accounting = new Accounting(1);
        RunWindow window = new RunWindow(0, 0, 1_000 * MS);
        ProducerStream stream = new ProducerStream(1, 0, StreamPlan.unpaced(2_500, 0, window.endNanos()),
                batching(events, null, -1, 0), new RandomPayloads(64, 1), 1, clock, accounting, new Recorders(),
                window, 2_000 * MS, 0);
        stream.run();

        assertEquals(2_501, events.size());
        for (int i = 0; i < 2_500; i++) {
            assertEquals("p" + i + "@0", events.get(i));
        }
        assertEquals("end@0", events.get(2_500));
        assertEquals(2_500, accounting.total().sent());
        assertEquals(2_500, stream.measuredSent());
        assertEquals(0, stream.unsent());
    }

    @Test
    void anUnpacedStreamBlockedPastTheGiveUpTimeInsideABurstStopsThereAndCountsTheRestUnsent() {
        Accounting accounting = new Accounting(1);
        RunWindow window = new RunWindow(0, 0, 1_000 * MS);
        ProducerStream stream = new ProducerStream(1, 0, StreamPlan.unpaced(2_000, 0, window.endNanos()),
                blockingAt(1_500, 20 * MS), new RandomPayloads(64, 1), 1, clock, accounting, new Recorders(), window,
                15 * MS, 0);
        stream.run();

        // as message by message: the block shows in the next message's send time, after which the stream stops
        assertEquals(1_502, sends.size());
        assertEquals(1_502, accounting.total().sent());
        assertEquals(498, stream.unsent());
    }

    @Test
    void anUnpacedStreamWithATimeLimitStopsAtTheRunsEndInsideABurst() {
        Accounting accounting = new Accounting(1);
        RunWindow window = new RunWindow(0, 0, 10 * MS);
        Publisher slow = onPublish(seq -> clock.advance(MS / 10));
        ProducerStream stream = new ProducerStream(1, 0,
                StreamPlan.unpaced(Pacing.Unpaced.UNTIL_TIME_LIMIT, 0, window.endNanos()), slow,
                new RandomPayloads(64, 1), 1, clock, accounting, new Recorders(), window, 1_000 * MS, 0);
        stream.run();

        // send times 0, 0.1, ... 10 ms: the one at the end is the last, as the plan's own check decides
        assertEquals(101, accounting.total().sent());
        assertEquals(101, stream.measuredSent());
        assertEquals(0, stream.unsent());
    }

    @Test
    void aStopRequestInsideABurstEndsTheStreamAtTheNextMessage() {
        Accounting accounting = new Accounting(1);
        RunWindow window = new RunWindow(0, 0, 1_000 * MS);
        ProducerStream[] stream = new ProducerStream[1];
        Publisher stopping = onPublish(seq -> {
            if (seq == 700) {
                stream[0].requestStop();
            }
        });
        stream[0] = new ProducerStream(1, 0, StreamPlan.unpaced(3_000, 0, window.endNanos()), stopping,
                new RandomPayloads(64, 1), 1, clock, accounting, new Recorders(), window, 1_000 * MS, 0);
        stream[0].run();

        assertEquals(701, accounting.total().sent());
        assertEquals(2_299, stream[0].unsent());
    }

    /** A client that does {@code action} with each message's sequence number as it is published. */
    private static Publisher onPublish(LongConsumer action) {
        return new Publisher() {
            @Override
            public void publish(byte[] message, long seq, long intended) {
                action.accept(seq);
            }

            @Override
            public void close() {
            }
        };
    }
}
