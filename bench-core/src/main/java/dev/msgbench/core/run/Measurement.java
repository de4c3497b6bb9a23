package dev.msgbench.core.run;

import java.util.Map;
import java.util.SplittableRandom;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.time.NanoClock;

/**
 * The run's recording parts and what it noted on its way; the window, log, monitor and hiccup
 * meter are set as the run gets that far.
 */
final class Measurement {
    final SplittableRandom seeds;
    final int runKey;
    final Accounting accounting;
    final Recorders recorders;
    final Receiver receiver;
    final FirstFailure ackErrors = new FirstFailure();
    RunWindow window;
    /** Ends the warm-up of {@code --warmup auto}; null for a fixed one. */
    AutoWarmup warmup;
    IntervalLog log;
    ProgressMonitor monitor;
    HiccupMeter hiccups;
    Throwable failure;
    boolean drained = true;
    /** When consumers started, in consume-after-produce runs. */
    long consumeStartNanos = Long.MIN_VALUE;
    /** The full collection between producing and consuming, in consume-after-produce runs; else null. */
    HeapBetweenPhases heapBetweenPhases;
    /** When every publisher's flush returned: the server then has every message sent. */
    long flushedNanos = Long.MIN_VALUE;
    /** Holds the consumers back with --backlog; null without it. */
    BacklogGate backlogGate;
    /** --start-at on the monotonic clock; unused without it. */
    long startDeadlineNanos;
    /** How the start went with --start-at, as result.json records it; null without it. */
    Map<String, Object> start;

    Measurement(RunSpec config, NanoClock clock, WorkerRole worker) {
        this(config, clock, worker, Destinations.ONE);
    }

    Measurement(RunSpec config, NanoClock clock, WorkerRole worker, Destinations destinations) {
        seeds = new SplittableRandom(config.seed());
        int key = seeds.nextInt();
        runKey = worker == null ? nonZero(key) : worker.runKey(key);
        // each stream's record of what arrived sized from its rate: millions of slow streams fit where a fast one is wide
        accounting = new Accounting(config.producers(), destinations.topics(), destinations.subscriptionsPerTopic(),
                config.consumers() > 0, ClientMemory.streamRateMsgsPerSec(config.pacing(), config.producers()));
        recorders = new Recorders();
        receiver = new Receiver(clock, runKey, accounting, recorders,
                config.sizes().isFixed() ? config.messageSizeBytes() : 0);
    }

    void stopRecording() {
        if (hiccups != null) {
            hiccups.stop();
        }
        if (log != null) {
            log.close();
        }
    }

    private static int nonZero(int key) {
        return key == 0 ? 0x5eed : key;
    }
}
