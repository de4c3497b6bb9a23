package dev.msgbench.core.run;

import java.util.Locale;

import dev.msgbench.core.UserError;
import dev.msgbench.core.record.Accounting;

/**
 * What a run's logical clients cost in memory before the first message: each producer stream's
 * sender, plan and counts (a tracker and a ledger per subscription of its topic, sized from the
 * stream's rate), each consumer's subscriber and sink, each producer thread's message array. A run
 * of millions of clients is refused on one line when this cannot fit in the heap, rather than end
 * in an OutOfMemoryError halfway through connecting.
 *
 * <p>Estimates, measured on the in-memory system (a driver's publisher and subscriber objects add
 * to them), and the figures of a run at its start: a stream's ledger grows while messages are
 * missing, and a system's client buffers come on top.
 *
 * @param producers             producer streams
 * @param consumers             consumers over every topic and subscription
 * @param subscriptionsPerTopic each keeps its own counts of each stream of its topic
 * @param streamRateMsgsPerSec  the most one stream sends per second; NaN without a schedule
 * @param producerThreads       each with a message array of the largest size
 * @param messageSizeBytes      the largest message
 */
public record ClientMemory(int producers, int consumers, int subscriptionsPerTopic, double streamRateMsgsPerSec,
                           int producerThreads, int messageSizeBytes) {

    /** A stream's sender, plan, schedule and publisher, without its counts; measured on the in-memory system. */
    static final long BYTES_PER_STREAM = 400;
    /** A consumer's subscriber, sink and place in the driver's tables; a guess above the in-memory system's. */
    static final long BYTES_PER_CONSUMER = 300;
    /** Below this a run's clients are not worth a line. */
    private static final long WORTH_SAYING_BYTES = 256L << 20;
    /**
     * The heap a run needs besides its clients (histograms, interval logs, the payload pool, the client
     * libraries): this much, or a quarter of a smaller heap, so that a run of a few clients in a small
     * heap (tune's -Xmx128m) is never refused for it.
     */
    private static final long HEAP_RESERVE_BYTES = 512L << 20;

    public static ClientMemory of(RunSpec config, Destinations destinations) {
        return new ClientMemory(config.producers(), destinations.consumers(config.consumers()),
                destinations.subscriptionsPerTopic(), streamRateMsgsPerSec(config.pacing(), config.producers()),
                config.producerThreads(), config.messageSizeBytes());
    }

    /** The most one of {@code producers} streams sends per second on this pacing; NaN for an unpaced run. */
    public static double streamRateMsgsPerSec(Pacing pacing, int producers) {
        if (pacing instanceof Pacing.FixedRate fixed) {
            double rate = fixed.schedule() == null ? fixed.rateMsgsPerSec()
                    : Math.max(fixed.rateMsgsPerSec(), fixed.schedule().peakRateMsgsPerSec());
            return rate / producers;
        }
        return Double.NaN;
    }

    public long bytes() {
        return (long) producers * bytesPerStream() + (long) consumers * BYTES_PER_CONSUMER + (long) producerThreads * (messageSizeBytes + 1024L);
    }

    /** One stream's sender and its counts for every subscription of its topic. */
    public long bytesPerStream() {
        return BYTES_PER_STREAM + subscriptionsPerTopic * Accounting.bytesPerStreamAndSubscription(streamRateMsgsPerSec);
    }

    /** Whether the run's clients take enough memory to say so before it starts. */
    public boolean worthSaying() {
        return bytes() >= WORTH_SAYING_BYTES;
    }

    /** "4,000,000 producer streams and 4,000,000 consumers take about 3.1 GiB of heap (JVM max heap 5.9 GiB)" */
    public String describe(long maxHeapBytes) {
        return String.format(Locale.US, "%,d producer stream%s and %,d consumer%s take about %s of heap (%,d B per "
                        + "stream, %,d B per consumer; this JVM's max heap is %s)", producers, producers == 1 ? "" : "s",
                consumers, consumers == 1 ? "" : "s", human(bytes()), bytesPerStream(), BYTES_PER_CONSUMER,
                human(maxHeapBytes));
    }

    /** Whether the clients and the run's own needs fit in a heap of {@code maxHeapBytes}. */
    public boolean fits(long maxHeapBytes) {
        return bytes() + reserve(maxHeapBytes) <= maxHeapBytes;
    }

    private static long reserve(long maxHeapBytes) {
        return Math.min(HEAP_RESERVE_BYTES, maxHeapBytes / 4);
    }

    /** Refuses, on one line, a run whose clients cannot fit in this JVM's heap. */
    static void refuseBeyondHeap(ClientMemory memory, long maxHeapBytes) {
        if (!memory.fits(maxHeapBytes)) {
            throw new UserError(memory.refusal(maxHeapBytes));
        }
    }

    /** The one line that refuses this run in a heap of {@code maxHeapBytes}. */
    public String refusal(long maxHeapBytes) {
        return String.format(Locale.US, "%,d producer streams and %,d consumers need about %s of heap besides %s for "
                        + "the run, and this JVM's max heap is %s; give the JVM more (java -Xmx...) or run "
                        + "fewer topics, producers or consumers", producers, consumers, human(bytes()),
                human(reserve(maxHeapBytes)), human(maxHeapBytes));
    }

    static String human(long bytes) {
        if (bytes >= 1L << 30) {
            return String.format(Locale.US, "%.1f GiB", bytes / (double) (1L << 30));
        }
        return String.format(Locale.US, "%.0f MiB", bytes / (double) (1L << 20));
    }
}
