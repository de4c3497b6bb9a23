package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.payload.RandomPayloads;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.time.UniformSchedule;

@Timeout(10)
class SharedProducerThreadTest {

    private static final long MS = 1_000_000;
    private static final long GIVE_UP = 1_000 * MS;

    private final ManualClock clock = new ManualClock(0);
    private final Recorders recorders = new Recorders();
    /** "s<stream>#<sequence>@<intended>/<sent>" per publish, "end<stream>@<clock>" per end of burst. */
    private final List<String> events = new ArrayList<>();
    private final List<ProducerStream> streams = new ArrayList<>();

    /** A publisher for {@code stream} that blocks the thread for {@code blockNanos} when it sends {@code blockAt}. */
    private Publisher publisher(int stream, long blockAt, long blockNanos, Runnable onBlock) {
        return new Publisher() {
            @Override
            public void publish(byte[] message, long sequence, long intended) {
                assertEquals(stream, PayloadHeader.streamId(message, 0), "the message carries its own stream id");
                assertEquals(intended, PayloadHeader.intendedNanos(message, 0), "and its own stream's intended time");
                events.add("s" + stream + "#" + sequence + "@" + intended / 1000 + "/" + clock.nanoTime() / 1000);
                if (sequence == blockAt) {
                    onBlock.run();
                    clock.advance(blockNanos);
                }
            }

            @Override
            public void endOfBurst() {
                events.add("end" + stream + "@" + clock.nanoTime() / 1000);
            }

            @Override
            public void close() {
            }
        };
    }

    private final ProducerPayloads shared = new ProducerPayloads(new RandomPayloads(64, 1), 7);
    private Accounting accounting;
    private RunWindow window;
    private long giveUpNanos;

    /** {@code count} streams, sending until {@code endNanos}, giving up at {@code giveUp}. */
    private void given(int count, long endNanos, long giveUp) {
        accounting = new Accounting(count);
        window = new RunWindow(0, 0, endNanos);
        giveUpNanos = giveUp;
    }

    /** Stream {@code id}, starting at {@code startNanos} at {@code rate} msg/s until the window ends. */
    private void stream(int id, long startNanos, double rate, Publisher publisher) {
        streams.add(new ProducerStream(1, id, StreamPlan.fixed(new UniformSchedule(startNanos, rate), window),
                publisher, shared, id, clock, accounting, recorders, window, giveUpNanos, 0, RecordKeys.NONE));
    }

    private void runThread() {
        new SharedProducerThread(streams, clock, recorders, giveUpNanos).run();
    }

    private List<Long> sent() {
        return accounting.perStream().stream().map(s -> s.sent()).toList();
    }

    private List<String> publishes() {
        return events.stream().filter(e -> e.startsWith("s")).toList();
    }

    @Test
    void eachMessageGoesOutAtItsOwnStreamsIntendedTimeInTheOrderOfThoseTimesAndBurstsEndBeforeEachWait() {
        given(3, 4 * MS, GIVE_UP);
        stream(0, 0, 1_000, publisher(0, -1, 0, () -> { }));
        stream(1, 500_000, 1_000, publisher(1, -1, 0, () -> { }));
        stream(2, 0, 500, publisher(2, -1, 0, () -> { }));

        runThread();

        // at 0 two are due: the lower stream id first, as every run; stream 1 is half a period after 0.
        // Before each wait the bursts end, of the streams that sent since the last wait and only theirs.
        assertEquals(List.of("s0#0@0/0", "s2#0@0/0", "end0@0", "end2@0", "s1#0@500/500", "end1@500",
                "s0#1@1000/1000", "end0@1000", "s1#1@1500/1500", "end1@1500", "s0#2@2000/2000", "s2#1@2000/2000",
                "end0@2000", "end2@2000", "s1#2@2500/2500", "end1@2500", "s0#3@3000/3000", "end0@3000",
                "s1#3@3500/3500", "end1@3500"), events);
        assertEquals(List.of(4L, 4L, 2L), sent());
        streams.forEach(s -> assertEquals(0, s.unsent()));
        assertEquals(0, recorders.drainInterval().measured(HistogramKind.SEND_DELAY).getMaxValue(),
                "on time: no send delay");
    }

    @Test
    void aStreamWhoseClientBlocksDelaysTheOthersButNeitherStarvesThemNorReschedulesAnything() {
        given(2, 6 * MS, GIVE_UP);
        // stream 0's client blocks at its message 1 until 4.2 ms: four messages of each are overdue then
        stream(0, 0, 1_000, publisher(0, 1, 3_200_000, () -> { }));
        stream(1, 100_000, 1_000, publisher(1, -1, 0, () -> { }));

        runThread();

        // overdue messages go out in the order of their intended times, alternating between the streams
        assertEquals(List.of("s0#0@0/0", "s1#0@100/100", "s0#1@1000/1000", "s1#1@1100/4200", "s0#2@2000/4200",
                "s1#2@2100/4200", "s0#3@3000/4200", "s1#3@3100/4200", "s0#4@4000/4200", "s1#4@4100/4200",
                "s0#5@5000/5000", "s1#5@5100/5100"), publishes());
        // each message is measured from its own intended time: stream 1's message 1 waited 3.1 ms for stream 0
        assertEquals(3_100_000, recorders.drainInterval().measured(HistogramKind.SEND_DELAY).getMaxValue(), 3_100);
        assertEquals(3_100_000, streams.get(1).maxBehindNanos());
    }

    @Test
    void aStopCountsEveryScheduledMessageNotSentAsUnsentForEachStream() {
        given(3, 10 * MS, GIVE_UP);
        // when stream 1 sends its message 3 (at 3 ms) the run is stopped
        stream(0, 0, 1_000, publisher(0, -1, 0, () -> { }));
        stream(1, 0, 1_000, publisher(1, 3, 0, () -> streams.forEach(ProducerStream::requestStop)));
        stream(2, 0, 2_000, publisher(2, -1, 0, () -> { }));

        runThread();

        List<Long> sent = sent();
        // stream 2's message at 3 ms comes after stream 1's (by stream id), so the stop catches it
        assertEquals(List.of(4L, 4L, 6L), sent, "everything due before 3 ms, and 0's and 1's at 3 ms");
        assertEquals(List.of(6L, 6L, 14L), streams.stream().map(ProducerStream::unsent).toList(),
                "sent plus unsent is each stream's whole schedule: 10, 10 and 20");
    }

    @Test
    void pastTheGiveUpTimeEveryStreamOfTheThreadStopsAndCountsWhatItCouldNotSend() {
        given(2, 10 * MS, 15 * MS);
        stream(0, 0, 1_000, publisher(0, 1, 20 * MS, () -> { }));
        stream(1, 500_000, 1_000, publisher(1, -1, 0, () -> { }));

        runThread();

        // the give-up check reads the last send time, as a stream of its own does: one more goes out after the block
        assertEquals(List.of("s0#0@0/0", "s1#0@500/500", "s0#1@1000/1000", "s1#1@1500/21000"), publishes());
        assertEquals(List.of(8L, 8L), streams.stream().map(ProducerStream::unsent).toList());
    }

    @Test
    void aFailedSendEndsTheThreadAndIsTheFailingStreamsWhileTheOthersCountTheirUnsentMessages() {
        given(2, 10 * MS, GIVE_UP);
        IllegalStateException broken = new IllegalStateException("connection closed");
        stream(0, 0, 1_000, publisher(0, -1, 0, () -> { }));
        stream(1, 0, 1_000, publisher(1, 2, 0, () -> {
            throw broken;
        }));

        runThread();

        assertSame(broken, streams.get(1).failure());
        assertEquals(null, streams.get(0).failure());
        assertEquals(List.of(3L, 3L), sent());
        // stream 0's message 3 was handed out and never sent; stream 1's message 2 was counted as sent when it failed
        assertEquals(List.of(7L, 7L), streams.stream().map(ProducerStream::unsent).toList());
    }
}
