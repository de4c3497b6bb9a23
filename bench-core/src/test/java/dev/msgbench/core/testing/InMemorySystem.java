package dev.msgbench.core.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongPredicate;

import dev.msgbench.core.broker.Signal;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.DeliveryPromise;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.disk.PowerCut;
import dev.msgbench.core.fault.FaultTarget;
import dev.msgbench.core.time.NanoClock;
import dev.msgbench.core.units.Durations;

/**
 * A messaging system in memory, for testing the core only: delivers each published message to
 * every subscriber synchronously, on the publishing thread, and acknowledges it. Faults are
 * injected by sequence number: drop, duplicate, hold back (delivered after the next message),
 * a subscriber that fails on a message and receives nothing more, a publish that fails, one that
 * blocks until interrupted, an acknowledgement that reports a failure, a freeze
 * during which publish blocks (as a process stopped with Ctrl+Z blocks its clients), and a
 * subscriber or publisher whose close fails.
 *
 * <p>It is also a {@link FaultTarget} of {@link #withNodes one or more nodes}: while any node is
 * stopped (SIGSTOP), killed or stopped cleanly, nothing is delivered; what is published meanwhile
 * is held and delivered, in order, when the node is back (CONT or restart), as a broker's backlog is.
 */
public final class InMemorySystem implements MessagingSystem, FaultTarget {

    private final List<MessageSink> sinks = new CopyOnWriteArrayList<>();
    private LongPredicate drop = s -> false;
    private LongPredicate duplicate = s -> false;
    private LongPredicate holdBack = s -> false;
    private LongPredicate failPublish = s -> false;
    private LongPredicate blockPublish = s -> false;
    private LongPredicate failSubscriber = s -> false;
    private LongPredicate failAck = s -> false;
    private LongPredicate abort = s -> false;
    private long commitNanos;
    private String abortedDeliveryHint;
    private boolean failClose;
    private long actionSequence = -1;
    private Runnable action;
    private NanoClock clock;
    private long serviceNanos;
    private String lossHint;
    private DeliveryPromise deliveryPromise = DeliveryPromise.ORDERED;
    private long freezeAfterNanos = -1;
    private long freezeNanos;
    private long freezePeriodNanos;
    private int ackBatch = 1;
    private boolean retaining;
    private boolean acknowledging = true;
    private long flushNanos;
    private boolean flushUntilClosed;
    private final List<byte[]> stored = new CopyOnWriteArrayList<>();
    private volatile int maxUnacknowledged;
    private RunPlan plan;
    private final List<String> events = new CopyOnWriteArrayList<>();
    private int nodes = 1;
    private OptionalInt leader = OptionalInt.of(1);
    /** Null: every node keeps messages on its disk. */
    private List<Integer> diskNodes;
    private volatile int failingDisk;
    /** Set while a node is down; deliveries then go to {@link #held}. Both guarded by this system. */
    private volatile boolean down;
    private final List<byte[]> held = new ArrayList<>();

    /** A system whose waits (service, freeze, flush) are on the system clock. */
    public InMemorySystem() {
        this(NanoClock.system());
    }

    /** A system whose waits (service, freeze, flush) are on {@code clock}, the run's clock. */
    public InMemorySystem(NanoClock clock) {
        this.clock = clock;
    }

    /** What {@link #lossHint()} says: how this system loses messages by design. */
    public InMemorySystem losingBecause(String hint) {
        this.lossHint = hint;
        return this;
    }

    @Override
    public String lossHint() {
        return lossHint;
    }

    /** What {@link #deliveryPromise()} says: what the system promises of order and copies. */
    public InMemorySystem promising(DeliveryPromise promise) {
        this.deliveryPromise = promise;
        return this;
    }

    @Override
    public DeliveryPromise deliveryPromise() {
        return deliveryPromise;
    }

    public InMemorySystem dropping(LongPredicate sequences) {
        this.drop = sequences;
        return this;
    }

    public InMemorySystem duplicating(LongPredicate sequences) {
        this.duplicate = sequences;
        return this;
    }

    public InMemorySystem holdingBack(LongPredicate sequences) {
        this.holdBack = sequences;
        return this;
    }

    public InMemorySystem failingPublishOf(LongPredicate sequences) {
        this.failPublish = sequences;
        return this;
    }

    /**
     * The publish of these sequences blocks until its thread is interrupted or the publisher closed,
     * as Kafka's send waits for the metadata of a topic whose broker is gone.
     */
    public InMemorySystem blockingPublishOf(LongPredicate sequences) {
        this.blockPublish = sequences;
        return this;
    }

    /** Reports these sequences as failed (and delivers them as usual), as a broker that timed out replicating them. */
    public InMemorySystem failingToAcknowledge(LongPredicate sequences) {
        this.failAck = sequences;
        return this;
    }

    /**
     * As a system in transactions: reports these sequences as aborted on purpose (delivered as
     * usual unless also dropped), and each batch of acknowledgements as a commit of {@code
     * commitNanos}; {@code hint} is why aborted messages may be delivered, or null where that is a fault.
     */
    public InMemorySystem inTransactions(LongPredicate aborted, long commitNanos, String hint) {
        this.abort = aborted;
        this.commitNanos = commitNanos;
        this.abortedDeliveryHint = hint;
        return this;
    }

    @Override
    public String abortedDeliveryHint() {
        return abortedDeliveryHint;
    }

    /**
     * The subscribers fail on the first message whose sequence matches: they report an error to
     * their sink instead of delivering it, and receive nothing more, as a consumer whose
     * connection broke.
     */
    public InMemorySystem failingSubscribersAt(LongPredicate sequences) {
        this.failSubscriber = sequences;
        return this;
    }

    /** Every subscriber's and publisher's close throws, as a client whose connection is already gone. */
    public InMemorySystem failingToClose() {
        this.failClose = true;
        return this;
    }

    /** Each publish takes this long, measured on {@code clock}; requests are served one after another. */
    public InMemorySystem answeringIn(long nanos, NanoClock onClock) {
        this.serviceNanos = nanos;
        this.clock = onClock;
        return this;
    }

    /** Each publish takes this long on the clock this system was made with; requests are served one after another. */
    public InMemorySystem answeringIn(long nanos) {
        return answeringIn(nanos, clock);
    }

    /**
     * Runs {@code whatHappens} on the publishing thread when message {@code sequence} (of any
     * stream) is published, before it is delivered.
     */
    public InMemorySystem whilePublishing(long sequence, Runnable whatHappens) {
        this.actionSequence = sequence;
        this.action = whatHappens;
        return this;
    }

    /** Freezes {@code afterNanos} after the first publish, for {@code forNanos}. */
    public InMemorySystem freezing(long afterNanos, long forNanos) {
        return freezing(afterNanos, forNanos, 0);
    }

    /**
     * Freezes as {@link #freezing(long, long)}, and again every {@code periodNanos} after that
     * (0: once): a system that never settles, for {@code --warmup auto}.
     */
    public InMemorySystem freezing(long afterNanos, long forNanos, long periodNanos) {
        this.freezeAfterNanos = afterNanos;
        this.freezeNanos = forNanos;
        this.freezePeriodNanos = periodNanos;
        return this;
    }

    /** Keeps every message and replays it to subscribers that come later, as a log does. */
    public InMemorySystem retaining() {
        this.retaining = true;
        return this;
    }

    @Override
    public boolean retainsMessages() {
        return retaining;
    }

    /** Acknowledges only when this many messages of a stream await it, all at once. */
    public InMemorySystem acknowledgingInBatchesOf(int count) {
        this.ackBatch = count;
        return this;
    }

    /**
     * Acknowledges nothing, as core NATS or Redis pub/sub, and each flush takes {@code nanos}, as
     * a round trip to a server still reading what was sent would.
     */
    public InMemorySystem withoutAcknowledgements(long flushTakingNanos) {
        this.acknowledging = false;
        this.flushNanos = flushTakingNanos;
        return this;
    }

    /**
     * Each publisher's flush waits until the publisher is closed, as Kafka's waits out its
     * delivery.timeout.ms for a broker that does not answer.
     */
    public InMemorySystem flushingUntilClosed() {
        this.flushUntilClosed = true;
        return this;
    }

    /** As a fault target: this many nodes, {@code leader} leading (empty: no leader found). */
    public InMemorySystem withNodes(int count, OptionalInt leaderNode) {
        this.nodes = count;
        this.leader = leaderNode;
        return this;
    }

    /** As a fault target: only these nodes keep messages on a disk (a Pulsar cluster's bookies). */
    public InMemorySystem withDiskNodes(List<Integer> nodesWithDisks) {
        this.diskNodes = List.copyOf(nodesWithDisks);
        return this;
    }

    @Override
    public int nodeCount() {
        return nodes;
    }

    @Override
    public List<Integer> diskNodes() {
        return diskNodes == null ? FaultTarget.super.diskNodes() : diskNodes;
    }

    @Override
    public OptionalInt leaderNode() {
        return leader;
    }

    /** Coordinates no transactions: it commits none. */
    @Override
    public OptionalInt coordinatorNode() {
        return OptionalInt.empty();
    }

    @Override
    public void signal(int node, Signal signal) {
        events.add("signal " + signal + " " + node);
        if (signal == Signal.STOP || signal == Signal.KILL || signal == Signal.TERM) {
            down = true;
        } else {
            release();
        }
    }

    @Override
    public void killNode(int node) {
        events.add("kill " + node);
        down = true;
    }

    @Override
    public void stopNode(int node) {
        events.add("stop " + node);
        down = true;
    }

    @Override
    public void restartNode(int node, Duration timeout) {
        events.add("restart " + node);
        release();
    }

    @Override
    public void restartNodes(List<Integer> nodes, Duration timeout) {
        events.add("restart " + nodes);
        release();
    }

    /** A cut that took {@code node} files, {@code node * 1000} bytes of appends, 10 restored and 1 name. */
    @Override
    public PowerCut powerCut(int node) {
        events.add("power cut " + node);
        down = true;
        return new PowerCut(node, 10, node * 1000L, 1);
    }

    @Override
    public void slowDisk(int node, Duration extra) {
        sickenDisk("slow disk " + node + " " + Durations.format(extra), node);
    }

    @Override
    public void healDisk(int node) {
        events.add("heal disk " + node);
    }

    @Override
    public void fillDisk(int node) {
        sickenDisk("fill disk " + node, node);
    }

    @Override
    public void freeDisk(int node) {
        events.add("free disk " + node);
    }

    private void sickenDisk(String event, int node) {
        if (node == failingDisk) {
            throw new IllegalStateException("node " + node + "'s disk is not a forgetful disk");
        }
        events.add(event);
    }

    /** As a fault target: node {@code node}'s disk refuses to be made slow or full. */
    public InMemorySystem withFailingDisk(int node) {
        this.failingDisk = node;
        return this;
    }

    /** Delivers what was held while a node was down, then lets deliveries through again. */
    private synchronized void release() {
        for (byte[] message : held) {
            for (MessageSink sink : sinks) {
                sink.onMessage(message, 0, message.length, 0);
            }
        }
        held.clear();
        down = false;
    }

    private void deliverToSinks(byte[] message) {
        if (down) {
            synchronized (this) {
                if (down) {
                    held.add(message.clone());
                    return;
                }
            }
        }
        for (MessageSink sink : sinks) {
            sink.onMessage(message, 0, message.length, 0);
        }
    }

    /** The most messages one stream ever had awaiting acknowledgement. */
    public int maxUnacknowledged() {
        return maxUnacknowledged;
    }

    public List<String> events() {
        return events;
    }

    public RunPlan plan() {
        return plan;
    }

    @Override
    public void prepare(RunPlan runPlan) {
        this.plan = runPlan;
        events.add("prepare");
    }

    @Override
    public synchronized Subscriber subscribe(int index, MessageSink runSink) {
        MessageSink sink = new FailingSink(runSink, index);
        for (byte[] message : stored) {
            sink.onMessage(message, 0, message.length, 0);
        }
        sinks.add(sink);
        events.add("subscribe " + index);
        return new Subscriber() {
            @Override
            public void awaitReady(Duration timeout) {
                events.add("ready " + index);
            }

            @Override
            public void close() {
                sinks.remove(sink);
                events.add("close subscriber " + index);
                if (failClose) {
                    throw new IllegalStateException("injected failure closing subscriber " + index);
                }
            }
        };
    }

    /** A subscriber's sink, which breaks for good on the sequence {@link #failingSubscribersAt} names. */
    private final class FailingSink implements MessageSink {
        private final MessageSink sink;
        private final int index;
        private volatile boolean broken;

        FailingSink(MessageSink sink, int index) {
            this.sink = sink;
            this.index = index;
        }

        @Override
        public void onMessage(byte[] data, int offset, int length, int lane) {
            if (broken) {
                return;
            }
            long sequence = PayloadHeader.sequence(data, offset);
            if (failSubscriber.test(sequence)) {
                broken = true;
                sink.onError(new IllegalStateException("injected failure of subscriber " + index + " at sequence " + sequence));
                return;
            }
            sink.onMessage(data, offset, length, lane);
        }

        @Override
        public void onMessage(java.nio.ByteBuffer data, int lane) {
            throw new UnsupportedOperationException("the in-memory system delivers arrays");
        }

        @Override
        public void onError(Throwable error) {
            sink.onError(error);
        }
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) {
        events.add("publisher " + streamId);
        return new Publisher() {
            private final CountDownLatch closed = new CountDownLatch(1);
            private long firstPublishNanos = -1;
            /** When the (one) server of this publisher ends its latest request. */
            private long serviceFreeAt = Long.MIN_VALUE;
            private byte[] heldBack;
            private final java.util.ArrayDeque<long[]> unacknowledged = new java.util.ArrayDeque<>();

            @Override
            public void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception {
                if (failPublish.test(sequence)) {
                    throw new IllegalStateException("injected failure at sequence " + sequence);
                }
                if (blockPublish.test(sequence)) {
                    closed.await();
                    throw new IllegalStateException("publisher closed while sending sequence " + sequence);
                }
                awaitService(intendedSendNanos);
                if (sequence == actionSequence) {
                    action.run();
                }
                if (holdBack.test(sequence)) {
                    heldBack = message.clone();
                } else if (!drop.test(sequence)) {
                    deliver(message);
                    if (duplicate.test(sequence)) {
                        deliver(message);
                    }
                    if (heldBack != null) {
                        byte[] held = heldBack;
                        heldBack = null;
                        deliver(held);
                    }
                }
                if (!acknowledging) {
                    return;
                }
                unacknowledged.add(new long[] {sequence, intendedSendNanos});
                maxUnacknowledged = Math.max(maxUnacknowledged, unacknowledged.size());
                if (unacknowledged.size() >= ackBatch) {
                    acknowledgePending();
                }
            }

            @Override
            public void flush() throws InterruptedException {
                if (flushUntilClosed) {
                    closed.await();
                    return; // a closed publisher acknowledges nothing more
                }
                acknowledgePending();
            }

            private void acknowledgePending() throws InterruptedException {
                if (flushNanos > 0) {
                    clock.sleepUntil(clock.nanoTime() + flushNanos);
                }
                if (commitNanos > 0 && !unacknowledged.isEmpty()) {
                    acks.committed(unacknowledged.peek()[1], commitNanos);
                }
                while (!unacknowledged.isEmpty()) {
                    long[] pending = unacknowledged.poll();
                    if (abort.test(pending[0])) {
                        acks.aborted(pending[0], pending[1]);
                    } else if (failAck.test(pending[0])) {
                        acks.failed(pending[0], pending[1], new IllegalStateException("not acknowledged: " + pending[0]));
                    } else {
                        acks.acked(pending[0], pending[1]);
                    }
                }
            }

            private void awaitService(long intendedSendNanos) throws InterruptedException {
                long now = clock.nanoTime();
                if (firstPublishNanos < 0) {
                    firstPublishNanos = now;
                }
                long freezeStart = firstPublishNanos + freezeAfterNanos;
                if (freezePeriodNanos > 0 && now > freezeStart) {
                    freezeStart += (now - freezeStart) / freezePeriodNanos * freezePeriodNanos;
                }
                if (freezeAfterNanos >= 0 && now >= freezeStart && now < freezeStart + freezeNanos) {
                    clock.sleepUntil(freezeStart + freezeNanos);
                    now = freezeStart + freezeNanos;
                    serviceFreeAt = Math.max(serviceFreeAt, now);
                }
                if (serviceNanos > 0) {
                    // a server of fixed service time: a request ends serviceNanos after the previous
                    // one or after it was due, whichever is later. Not after it came: a producer woken
                    // late on a busy machine would add its lateness to every request of a backlog.
                    serviceFreeAt = Math.max(Math.min(now, intendedSendNanos), serviceFreeAt) + serviceNanos;
                    clock.sleepUntil(serviceFreeAt);
                }
            }

            private void deliver(byte[] message) {
                if (retaining) {
                    synchronized (InMemorySystem.this) {
                        stored.add(message.clone());
                    }
                }
                deliverToSinks(message);
            }

            @Override
            public void close() {
                closed.countDown();
                events.add("close publisher " + streamId);
                if (failClose) {
                    throw new IllegalStateException("injected failure closing publisher " + streamId);
                }
            }
        };
    }

    @Override
    public SystemInfo info() {
        Map<String, Object> durability = new LinkedHashMap<>();
        durability.put("acks", "all");
        durability.put("persistence", "none (in memory)");
        return new SystemInfo("in-memory", "in-memory 1", "in-memory 1", durability,
                new LinkedHashMap<>(Map.of("consumers", plan == null ? 0 : plan.consumers())), acknowledging);
    }

    @Override
    public void close() {
        events.add("close");
    }

    /** Events recorded so far, for asserting the engine's call order. */
    public List<String> eventsSnapshot() {
        return new ArrayList<>(events);
    }
}
