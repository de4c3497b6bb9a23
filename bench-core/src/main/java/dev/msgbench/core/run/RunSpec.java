package dev.msgbench.core.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.fault.FaultPlan;
import dev.msgbench.core.payload.MessageSizes;
import dev.msgbench.core.payload.PayloadContent;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.payload.RecordKeys;

/**
 * The one description of a run: everything the engine needs to run one measurement, and nothing
 * of where its output goes or what watches it ({@link RunContext}). The command line, workload
 * files, sweep steps, tune's child JVMs and workers all build one, {@link LoadRun} takes it whole,
 * and result.json records it ({@link RunSpecJson}). Checked by the command line first (with the
 * flag names); the checks here catch programming errors.
 *
 * @param command      the command that asked for the run ("e2e", "throughput"), recorded in the result
 * @param pacing       a fixed schedule (latency) or as fast as accepted (throughput)
 * @param drainTimeout how long to wait after the last send for outstanding messages
 * @param readyTimeout how long subscribers may take to be ready
 * @param outputDir    where result files go; created if missing
 * @param progress     print a live line each second
 * @param broker       how the broker was obtained (local or given), recorded in the result
 * @param cpus         the CPUs this JVM was pinned to for the run (--cpus), or null; recorded in the
 *                     result beside the CPUs actually allowed
 * @param faults       the faults to inject (--fault) and the --fault-timeout
 * @param messageSizeBytes the largest message of the run ({@code sizes}' largest)
 * @param sizes        the sizes messages are drawn from (--size)
 * @param sharing      the threads and connections the producers and consumers share
 * @param destinations the topics and the subscriptions of each (--topics, --subscriptions-per-topic)
 * @param keys         the record key each message gets (--keys, --key-count)
 * @param backlog      how much the producers send before the consumers start (--backlog), or null
 * @param worker       this process's part of a run split over several load generators, or null
 * @param startAt      the wall-clock instant the schedule starts (--start-at), or null for at once
 * @param payload      what the messages hold after the header (--payload); with files, {@code sizes}
 *                     are the files'
 */
public record RunSpec(String command, String systemName, Pacing pacing, int messageSizeBytes, int producers,
                      int consumers, long seed, Duration drainTimeout, Duration readyTimeout, Path outputDir,
                      boolean progress, Map<String, Object> broker, CpuList cpus,
                      FaultPlan faults, MessageSizes sizes, ClientSharing sharing, Destinations destinations,
                      RecordKeys keys, Backlog backlog, WorkerRole worker, StartAt startAt,
                      PayloadContent payload) {

    /** Where the warm-up runs' results go, inside the measured run's folder, one folder each. */
    public static final String WARMUP_FOLDER = "warmup";
    /** Warm-up runs made before a measured one with warm-up messages: see {@link #warmupRuns}. */
    public static final int WARMUP_RUNS = 2;

    public RunSpec {
        Objects.requireNonNull(sharing, "sharing");
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(systemName, "systemName");
        Objects.requireNonNull(pacing, "pacing");
        Objects.requireNonNull(outputDir, "outputDir");
        Objects.requireNonNull(faults, "faults");
        Objects.requireNonNull(sizes, "sizes");
        Objects.requireNonNull(destinations, "destinations");
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(payload, "payload");
        // in the caller's order, and a value may be null (a setting not given)
        broker = Collections.unmodifiableMap(new LinkedHashMap<>(broker));
        if (messageSizeBytes < PayloadHeader.BYTES) {
            throw new IllegalArgumentException("message size below the header size: " + messageSizeBytes);
        }
        if (sizes.maxBytes() != messageSizeBytes || sizes.minBytes() < PayloadHeader.BYTES) {
            throw new IllegalArgumentException("messageSizeBytes is the largest of the sizes, all above the header: "
                    + messageSizeBytes + ", " + sizes);
        }
        if (payload instanceof PayloadContent.FromFiles files && !files.sizes().spec().equals(sizes.spec())) {
            throw new IllegalArgumentException("file payloads have the files' sizes: " + files.sizes() + ", not " + sizes);
        }
        if (drainTimeout.isNegative() || readyTimeout.isNegative() || readyTimeout.isZero()) {
            throw new IllegalArgumentException("drain >= 0, ready > 0");
        }
        if (producers < 1 || consumers < 0) {
            throw new IllegalArgumentException("producers >= 1 and consumers >= 0");
        }
    }

    /** Random payloads. */
    public RunSpec(String command, String systemName, Pacing pacing, int messageSizeBytes, int producers,
                   int consumers, long seed, Duration drainTimeout, Duration readyTimeout, Path outputDir,
                   boolean progress, Map<String, Object> broker, CpuList cpus,
                   FaultPlan faults, MessageSizes sizes, ClientSharing sharing, Destinations destinations,
                   RecordKeys keys, Backlog backlog, WorkerRole worker, StartAt startAt) {
        this(command, systemName, pacing, messageSizeBytes, producers, consumers, seed, drainTimeout, readyTimeout,
                outputDir, progress, broker, cpus, faults, sizes, sharing, destinations, keys, backlog, worker, startAt,
                PayloadContent.RANDOM);
    }

    /** Each producer and consumer with a thread or connection of its own. */
    public RunSpec(String command, String systemName, Pacing pacing, int messageSizeBytes, int producers,
                     int consumers, long seed, Duration drainTimeout, Duration readyTimeout, Path outputDir,
                     boolean progress, Map<String, Object> broker, CpuList cpus, FaultPlan faults, MessageSizes sizes) {
        this(command, systemName, pacing, messageSizeBytes, producers, consumers, seed, drainTimeout, readyTimeout,
                outputDir, progress, broker, cpus, faults, sizes, ClientSharing.PER_CLIENT, Destinations.ONE,
                RecordKeys.NONE, null, null, null);
    }

    /** Messages of one size. */
    public RunSpec(String command, String systemName, Pacing pacing, int messageSizeBytes, int producers,
                     int consumers, long seed, Duration drainTimeout, Duration readyTimeout, Path outputDir,
                     boolean progress, Map<String, Object> broker, CpuList cpus, FaultPlan faults) {
        this(command, systemName, pacing, messageSizeBytes, producers, consumers, seed, drainTimeout, readyTimeout,
                outputDir, progress, broker, cpus, faults, MessageSizes.fixed(messageSizeBytes));
    }

    /** Without faults. */
    public RunSpec(String command, String systemName, Pacing pacing, int messageSizeBytes, int producers,
                     int consumers, long seed, Duration drainTimeout, Duration readyTimeout, Path outputDir,
                     boolean progress, Map<String, Object> broker, CpuList cpus) {
        this(command, systemName, pacing, messageSizeBytes, producers, consumers, seed, drainTimeout, readyTimeout,
                outputDir, progress, broker, cpus, FaultPlan.NONE);
    }

    /** Not pinned: this JVM runs where it was started. */
    public RunSpec(String command, String systemName, Pacing pacing, int messageSizeBytes, int producers,
                     int consumers, long seed, Duration drainTimeout, Duration readyTimeout, Path outputDir,
                     boolean progress, Map<String, Object> broker) {
        this(command, systemName, pacing, messageSizeBytes, producers, consumers, seed, drainTimeout, readyTimeout,
                outputDir, progress, broker, null);
    }

    public RunSpec withOutputDir(Path dir) {
        return new RunSpec(command, systemName, pacing, messageSizeBytes, producers, consumers, seed, drainTimeout,
                readyTimeout, dir, progress, broker, cpus, faults, sizes, sharing, destinations, keys, backlog, worker,
                startAt, payload);
    }

    public RunSpec withProducers(int count) {
        return new RunSpec(command, systemName, pacing, messageSizeBytes, count, consumers, seed, drainTimeout,
                readyTimeout, outputDir, progress, broker, cpus, faults, sizes, sharing, destinations, keys, backlog,
                worker, startAt, payload);
    }

    /** Messages of these sizes; {@link #messageSizeBytes()} becomes their largest. */
    public RunSpec withSizes(MessageSizes messageSizes) {
        return new RunSpec(command, systemName, pacing, messageSizes.maxBytes(), producers, consumers, seed,
                drainTimeout, readyTimeout, outputDir, progress, broker, cpus, faults, messageSizes, sharing,
                destinations, keys, backlog, worker, startAt, payload);
    }

    /** Messages holding {@code content} after the header (--payload); files bring their own sizes. */
    public RunSpec withPayload(PayloadContent content) {
        MessageSizes messageSizes = content instanceof PayloadContent.FromFiles files ? files.sizes() : sizes;
        return new RunSpec(command, systemName, pacing, messageSizes.maxBytes(), producers, consumers, seed,
                drainTimeout, readyTimeout, outputDir, progress, broker, cpus, faults, messageSizes, sharing,
                destinations, keys, backlog, worker, startAt, content);
    }

    public RunSpec withFaults(FaultPlan plan) {
        return new RunSpec(command, systemName, pacing, messageSizeBytes, producers, consumers, seed, drainTimeout,
                readyTimeout, outputDir, progress, broker, cpus, plan, sizes, sharing, destinations, keys, backlog,
                worker, startAt, payload);
    }

    /** Producers and consumers sharing threads and connections (--producer-threads, --consumer-connections). */
    public RunSpec withSharing(ClientSharing clientSharing) {
        return new RunSpec(command, systemName, pacing, messageSizeBytes, producers, consumers, seed, drainTimeout,
                readyTimeout, outputDir, progress, broker, cpus, faults, sizes, clientSharing, destinations, keys,
                backlog, worker, startAt, payload);
    }

    /** Spread over topics with subscriptions each (--topics, --subscriptions-per-topic). */
    public RunSpec withDestinations(Destinations spread) {
        return new RunSpec(command, systemName, pacing, messageSizeBytes, producers, consumers, seed, drainTimeout,
                readyTimeout, outputDir, progress, broker, cpus, faults, sizes, sharing, spread, keys, backlog, worker,
                startAt, payload);
    }

    /** Each message with a record key drawn from {@code recordKeys} (--keys, --key-count). */
    public RunSpec withKeys(RecordKeys recordKeys) {
        return new RunSpec(command, systemName, pacing, messageSizeBytes, producers, consumers, seed, drainTimeout,
                readyTimeout, outputDir, progress, broker, cpus, faults, sizes, sharing, destinations, recordKeys,
                backlog, worker, startAt, payload);
    }

    /** The consumers held back until the producers have sent {@code size} (--backlog); null for none. */
    public RunSpec withBacklog(Backlog size) {
        return new RunSpec(command, systemName, pacing, messageSizeBytes, producers, consumers, seed, drainTimeout,
                readyTimeout, outputDir, progress, broker, cpus, faults, sizes, sharing, destinations, keys, size,
                worker, startAt, payload);
    }

    /** One worker's part of a run split over several load generators; null for the whole run. */
    public RunSpec withWorker(WorkerRole role) {
        return new RunSpec(command, systemName, pacing, messageSizeBytes, producers, consumers, seed, drainTimeout,
                readyTimeout, outputDir, progress, broker, cpus, faults, sizes, sharing, destinations, keys, backlog,
                role, startAt, payload);
    }

    /** The schedule starts at this wall-clock instant, once connected and subscribed; null for at once. */
    public RunSpec withStartAt(StartAt at) {
        return new RunSpec(command, systemName, pacing, messageSizeBytes, producers, consumers, seed, drainTimeout,
                readyTimeout, outputDir, progress, broker, cpus, faults, sizes, sharing, destinations, keys, backlog,
                worker, at, payload);
    }

    /** Messages in a run of their own before this one (--warmup-messages); 0 for none. */
    public long warmupMessages() {
        return pacing instanceof Pacing.Unpaced unpaced ? unpaced.warmupMessages() : 0;
    }

    /**
     * The warm-up runs before this one, {@link #WARMUP_RUNS} of them sharing its warm-up messages:
     * each with those messages and the same flags, but another seed (so a run key and destinations
     * of its own: the measured run never sees its messages), its folder {@code warmup/1},
     * {@code warmup/2} inside this run's, no progress, no faults, no backlog, and as a whole run
     * started at once (neither a worker's part nor at --start-at). Fewer when there are fewer
     * messages than runs.
     *
     * <p>Why more than one: a client started after its hot paths were compiled takes branches of its
     * start that the compiled code never saw, and the JVM throws that code away and compiles it again,
     * on the second client, while it reads (Kafka's consumer: half a second of C2 a method). The
     * second run's clients pay for that, so the measured run's clients start in code that has seen a start.
     */
    public List<RunSpec> warmupRuns() {
        if (!(pacing instanceof Pacing.Unpaced unpaced) || unpaced.warmupMessages() == 0) {
            throw new IllegalStateException("no warm-up run: " + pacing);
        }
        long total = unpaced.warmupMessages();
        int runs = (int) Math.min(WARMUP_RUNS, total);
        List<RunSpec> configs = new ArrayList<>(runs);
        for (int k = 1; k <= runs; k++) {
            // the first runs take the remainder: each has its share, all of them the total
            long messages = total / runs + (k <= total % runs ? 1 : 0);
            configs.add(new RunSpec(command, systemName, unpaced.warmupRun(messages), messageSizeBytes, producers,
                    consumers, seed + k, drainTimeout, readyTimeout, outputDir.resolve(WARMUP_FOLDER).resolve("" + k),
                    false, broker, cpus, FaultPlan.NONE, sizes, sharing, destinations, keys, null, null, null, payload));
        }
        return configs;
    }

    /** Threads the producer streams are sent from. */
    public int producerThreads() {
        return sharing.threadsFor(producers);
    }
}
