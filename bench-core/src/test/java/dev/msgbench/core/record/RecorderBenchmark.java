package dev.msgbench.core.record;

import java.util.concurrent.TimeUnit;

import org.HdrHistogram.SingleWriterRecorder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Why the engine records through {@link ThreadRecorders} and not HdrHistogram's own
 * {@link SingleWriterRecorder}: the cost of recording one message's values, the way the receive
 * side does it (latency and service time together), in each. SingleWriterRecorder guards every
 * value with its phaser's enter and exit (two atomic increments); ThreadRecorders one volatile
 * store per message, whatever it records. {@code ThreadRecordersStressTest} proves that the
 * cheaper guard still counts every value exactly once.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class RecorderBenchmark {

    /** Values over four decades, as latencies in ns are: a histogram's slow path is its index computation. */
    private static final long MASK = (1 << 20) - 1;

    private ThreadRecorders threadRecorders;
    private SingleWriterRecorder latency;
    private SingleWriterRecorder service;
    private long value = 12_345;

    @Setup(Level.Trial)
    public void setUp() {
        threadRecorders = new Recorders().current();
        latency = new SingleWriterRecorder(ThreadRecorders.SIGNIFICANT_DIGITS);
        service = new SingleWriterRecorder(ThreadRecorders.SIGNIFICANT_DIGITS);
    }

    private long next() {
        value = (value * 6_364_136_223_846_793_005L + 1_442_695_040_888_963_407L);
        return 1_000 + (value >>> 44 & MASK);
    }

    /* One message's two values in one critical section, as the receiver records them. */
    @Benchmark
    public void threadRecordersTwoValues() {
        threadRecorders.record(HistogramKind.LATENCY, next(), HistogramKind.SERVICE, next(), true);
    }

    /* The same two values in two of HdrHistogram's recorders, one per kind. */
    @Benchmark
    public void singleWriterRecordersTwoValues() {
        latency.recordValue(next());
        service.recordValue(next());
    }

    /* One value: the send delay of a send. */
    @Benchmark
    public void threadRecordersOneValue() {
        threadRecorders.record(HistogramKind.SEND_DELAY, true, next());
    }

    @Benchmark
    public void singleWriterRecorderOneValue() {
        latency.recordValue(next());
    }
}
