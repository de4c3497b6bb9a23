package dev.msgbench.core.run;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.payload.BodySource;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.payload.RandomPayloads;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.record.ThreadRecorders;
import dev.msgbench.core.time.NanoClock;
import dev.msgbench.core.time.Schedule;
import dev.msgbench.core.time.UniformSchedule;

/**
 * The engine's own cost per message, which must stay far below a broker's: at most 100 ns and
 * no allocation (run with -prof gc). Each benchmark is one piece of the path; {@link #wholePath}
 * is all of them as the engine strings them together for one message, with the client left
 * out (the message goes straight to the receive side).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class EnginePathBenchmark {

    private static final int RUN_KEY = 0x5eed;
    /** Messages per invocation of {@link #producerToReceiver}: enough to make its setup negligible. */
    private static final int RUN_MESSAGES = 100_000;
    /** Records of one Kafka poll at the consumer's default max.poll.records: they share its receive time. */
    private static final int POLL_RECORDS = 500;
    /** The first record's latency in {@link #receivePollDraining}: older than any benchmark run lasts. */
    private static final long BACKLOG_AGE_NANOS = 1_000_000_000_000L;
    /** How much younger each next record of the drained backlog is. */
    private static final long DRAIN_STEP_NANOS = 10;

    @Param({"100", "1024"})
    int sizeBytes;

    private final NanoClock clock = NanoClock.system();
    private Schedule schedule;
    private RandomPayloads payloads;
    private BodySource bodies;
    private byte[] message;
    /** One poll's messages, each of its own bytes as a fetch's records are. */
    private List<ByteBuffer> poll;
    private long pollReceived;
    private Accounting accounting;
    private Recorders recorders;
    private Receiver receiver;
    /** As a run of one message size builds it: bytes received come from the count, not an adder. */
    private Receiver fixedSizeReceiver;
    private long sequence;
    private long firstIntended;
    private ThreadRecorders sendRecorder;

    @Setup(Level.Trial)
    public void setUp() {
        long now = clock.nanoTime();
        schedule = new UniformSchedule(now, 10_000_000);
        payloads = new RandomPayloads(sizeBytes, 1);
        bodies = payloads.source(2);
        message = payloads.newMessage();
        poll = new ArrayList<>(POLL_RECORDS);
        for (int i = 0; i < POLL_RECORDS; i++) {
            poll.add(ByteBuffer.wrap(payloads.newMessage()));
        }
        accounting = new Accounting(1);
        recorders = new Recorders();
        receiver = new Receiver(clock, RUN_KEY, accounting, recorders);
        receiver.start(new RunWindow(now, now, Long.MAX_VALUE));
        fixedSizeReceiver = new Receiver(clock, RUN_KEY, new Accounting(1), recorders, sizeBytes);
        fixedSizeReceiver.start(new RunWindow(now, now, Long.MAX_VALUE));
        firstIntended = now;
        sendRecorder = recorders.current();
    }

    /* The next intended send time. */
    @Benchmark
    public long schedule() {
        return schedule.next();
    }

    /* Header written on send and read back on receipt. */
    @Benchmark
    public long headerRoundTrip() {
        long s = sequence++;
        PayloadHeader.write(message, RUN_KEY, 0, s, s);
        PayloadHeader.stampSendTime(message, s);
        return PayloadHeader.sequence(message, 0) + PayloadHeader.intendedNanos(message, 0)
                + PayloadHeader.sentNanos(message, 0) + PayloadHeader.streamId(message, 0);
    }

    /* A random body copied from the pool into the message. */
    @Benchmark
    public byte[] refill() {
        bodies.refill(message);
        return message;
    }

    /*
     * The receive side alone: clock, header decode, sequence accounting, two records. The
     * intended time is the one of the first message, so the benchmark adds no clock read of
     * its own; latencies then grow to about a second, which the histograms hold without resizing.
     */
    @Benchmark
    public long receive() {
        long s = sequence++;
        PayloadHeader.write(message, RUN_KEY, 0, s, firstIntended);
        receiver.onMessage(message, 0, message.length, 0);
        return s;
    }

    /*
     * The receive side as a consumer that stamps a poll once drives it, a call per record: the
     * record's value as a view of the fetched bytes, and one receive time per poll of 500 records
     * (MessageSink.receivedNow), so one clock read per 500. Latencies spread
     * over 0 to 1 ms as in wholePath, not one value per poll, which would find its bucket cached.
     */
    @Benchmark
    public long receivePolled() {
        long s = sequence++;
        int i = (int) (s % POLL_RECORDS);
        if (i == 0) {
            pollReceived = fixedSizeReceiver.receivedNow();
        }
        ByteBuffer record = poll.get(i);
        writeHeader(record.array(), s, pollReceived);
        fixedSizeReceiver.onMessage(record, 0, pollReceived);
        return s;
    }

    /* The same records handed over a poll at a time (MessageSink.onMessages), as Kafka's consumer does. */
    @Benchmark
    @OperationsPerInvocation(POLL_RECORDS)
    public long receivePoll() {
        long received = fixedSizeReceiver.receivedNow();
        for (ByteBuffer record : poll) {
            writeHeader(record.array(), sequence++, received);
        }
        fixedSizeReceiver.onMessages(poll, Function.identity(), 0, received);
        return sequence;
    }

    /*
     * The same, draining a backlog faster than it was written, as a consumer started after its
     * producers does (scripts/compare-native's subscriber runs, a backlog's drain): each record's
     * latency is below every one before it, so each is a new minimum of the histograms.
     */
    @Benchmark
    @OperationsPerInvocation(POLL_RECORDS)
    public long receivePollDraining() {
        long received = fixedSizeReceiver.receivedNow();
        for (ByteBuffer record : poll) {
            long s = sequence++;
            long intended = received - (BACKLOG_AGE_NANOS - s * DRAIN_STEP_NANOS);
            PayloadHeader.write(record.array(), RUN_KEY, 0, s, intended);
            PayloadHeader.stampSendTime(record.array(), intended);
        }
        fixedSizeReceiver.onMessages(poll, Function.identity(), 0, received);
        return sequence;
    }

    private static void writeHeader(byte[] record, long sequence, long received) {
        long intended = received - ((sequence * 0x9E3779B97F4A7C15L) >>> 44);
        PayloadHeader.write(record, RUN_KEY, 0, sequence, intended);
        PayloadHeader.stampSendTime(record, intended);
    }

    /* One value into this thread's recorder. */
    @Benchmark
    public long record() {
        long v = (sequence++ & 0xffff) + 1_000;
        recorders.record(HistogramKind.LATENCY, true, v);
        return v;
    }

    /*
     * Everything the engine does for one message, both sides, client excluded.
     *
     * The intended time is placed 0 to 1 ms before the send, as in a run that keeps its
     * schedule. Taking it from the schedule itself, as an earlier version did, let the loop
     * fall behind a schedule faster than itself whenever the machine was busy: latencies then
     * grew without bound, every histogram kept resizing (the ~0.04 B/op once measured) and
     * recorded into cold buckets, and the benchmark measured its own drift (~315 ns/op), not
     * the engine. The schedule is still asked for the next time, so its cost is included.
     */
    @Benchmark
    public long wholePath() {
        long next = schedule.next();
        bodies.refill(message);
        long s = sequence++;
        long actual = clock.nanoTime();
        long intended = actual - ((s * 0x9E3779B97F4A7C15L) >>> 44); // 0 to 1.05 ms, spread like a real distribution
        PayloadHeader.write(message, RUN_KEY, 0, s, intended);
        PayloadHeader.stampSendTime(message, actual);
        accounting.countSent(0);
        receiver.onMessage(message, 0, message.length, 0);
        sendRecorder.record(HistogramKind.SEND_DELAY, true, actual - intended);
        return s ^ next;
    }

    /*
     * The engine's real code for one message, both sides: the producer loop (plan, clock,
     * random body, header, counts, send-delay record) hands each message to the receiver
     * (clock, header, sequence accounting, latency and service records). Unpaced, so nothing
     * waits; the client is left out.
     */
    @Benchmark
    @OperationsPerInvocation(RUN_MESSAGES)
    public long producerToReceiver(WholeRun whole) {
        whole.stream.run();
        return whole.stream.measuredSent();
    }

    /** A fresh producer stream per invocation: its own state, so other benchmarks keep their per-trial setup. */
    @State(Scope.Thread)
    public static class WholeRun {
        ProducerStream stream;

        @Setup(Level.Invocation)
        public void newRun(EnginePathBenchmark engine) {
            // fresh counts for sequences 0..n each time; a small tracking window keeps this cheap
            Accounting counts = new Accounting(1, 1024);
            Receiver sink = new Receiver(engine.clock, RUN_KEY, counts, engine.recorders);
            RunWindow window = new RunWindow(0, 0, Long.MAX_VALUE);
            sink.start(window);
            Publisher straightToReceiver = new Publisher() {
                @Override
                public void publish(byte[] message, long seq, long intendedSendNanos) {
                    sink.onMessage(message, 0, message.length, 0);
                }

                @Override
                public void close() {
                }
            };
            stream = new ProducerStream(RUN_KEY, 0, StreamPlan.unpaced(RUN_MESSAGES, 0, Long.MAX_VALUE),
                    straightToReceiver, engine.payloads, 3, engine.clock, counts, engine.recorders, window,
                    Long.MAX_VALUE, 0);
        }
    }
}
