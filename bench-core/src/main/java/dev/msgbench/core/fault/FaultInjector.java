package dev.msgbench.core.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;
import java.util.PriorityQueue;
import java.util.function.Consumer;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.SettingNames;
import dev.msgbench.core.analysis.RunIntervals;
import dev.msgbench.core.Threads;
import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.Signal;
import dev.msgbench.core.units.Durations;
import dev.msgbench.core.time.NanoClock;

/**
 * Carries out a run's {@link FaultPlan} on its own thread, on the run's clock: each fault at its
 * time, the node it names resolved at that moment (the leader then), and each fault's end (the
 * resume of a pause, the heal of a sick disk, the restart of a killed node or of the nodes that
 * lost power) when it is due. Records a {@link FaultEvent} per fault; a fault that cannot be done is recorded as failed
 * and the run goes on.
 *
 * <p>Between faults it watches the receiving side: nothing delivered for longer than the plan's
 * fault timeout after a fault, while messages are due, is the run's {@link #failure()}.
 *
 * <p>A node it paused is always resumed when it stops, however the run ends, a node it cut off is
 * joined again, and a disk it made slow or full is healed: a stopped broker or a sick disk must
 * never be left behind.
 */
public final class FaultInjector {

    /** How often the delivery watch looks, between faults. */
    static final long WATCH_STEP_NANOS = 100_000_000L;

    private final FaultPlan plan;
    private final FaultTarget target;
    private final NanoClock clock;
    private final long measureStartNanos;
    private final DeliveryProbe probe;
    private final Consumer<FaultEvent> recorded;
    private final SettingNames names;

    /** Guarded by itself; the injector thread adds, readers copy after {@link #stop()}. */
    private final List<Happening> happenings = new ArrayList<>();
    /** Only the injector thread touches the queue. */
    private final PriorityQueue<Action> due = new PriorityQueue<>(Comparator.comparingLong(Action::atNanos));
    /** Paused or partitioned nodes and sick disks: undone when due, or when the injector stops. */
    private final List<Happening> pausedNow = new ArrayList<>();
    private Thread thread;
    private volatile Throwable failure;
    private volatile long stoppedNanos = Long.MIN_VALUE;
    /** The delivery watch counts from here: the latest fault asked, or the latest pause resumed. */
    private long watchFromNanos = Long.MIN_VALUE;

    private FaultInjector(FaultPlan plan, FaultTarget target, NanoClock clock, long measureStartNanos, DeliveryProbe probe,
                          Consumer<FaultEvent> recorded, SettingNames names) {
        this.plan = plan;
        this.target = target;
        this.clock = clock;
        this.measureStartNanos = measureStartNanos;
        this.probe = probe;
        this.recorded = recorded;
        this.names = names;
    }

    /**
     * Starts the plan's thread (none for an empty plan).
     *
     * @param clock             the run's clock; every wait is a sleep on it
     * @param measureStartNanos where fault times count from
     * @param recorded          told of each fault once it is over, on the injector thread
     * @param names             how the outcomes and the timeout's error name the settings they mention
     */
    public static FaultInjector start(FaultPlan plan, FaultTarget target, NanoClock clock, long measureStartNanos,
                                      DeliveryProbe probe, Consumer<FaultEvent> recorded, SettingNames names) {
        FaultInjector injector = new FaultInjector(plan, target, clock, measureStartNanos, probe, recorded, names);
        if (!plan.isEmpty()) {
            injector.thread = new Thread(injector::run, "msgbench-faults");
            injector.thread.setDaemon(true);
            injector.thread.start();
        }
        return injector;
    }

    /**
     * Waits, on the run's clock, until no node is down or unreachable by a fault of the plan (a
     * killed node or one without power is started again, a pause or a partition is over), at most
     * the fault timeout: consumers released from a backlog while a node is down subscribe once it
     * serves again, as a client arriving then would wait for it, rather than fail to connect. A slow
     * or full disk leaves its node serving; a kill that never restarts is over once done.
     *
     * @param waiting the waiting thread's view of the run's clock (on a fake clock, one that never moves it)
     * @return whether every node serves again (false: the timeout passed, or the plan's thread ended first)
     */
    public boolean awaitNodesServing(NanoClock waiting) throws InterruptedException {
        long deadline = waiting.nanoTime() + plan.faultTimeout().toNanos();
        while (nodeAway()) {
            if (waiting.nanoTime() >= deadline || thread == null || !thread.isAlive()) {
                return false;
            }
            waiting.sleepUntil(waiting.nanoTime() + WATCH_STEP_NANOS);
        }
        return true;
    }

    private boolean nodeAway() {
        synchronized (happenings) {
            return happenings.stream().anyMatch(h -> !h.finished && h.spec.kind() != FaultKind.EXEC
                    && !h.spec.kind().sickensDisk());
        }
    }

    /** The fault timeout's verdict, or null: set once, on the injector thread. */
    public Throwable failure() {
        return failure;
    }

    /**
     * Ends the plan: faults not yet due never happen, paused nodes are resumed, and a killed node
     * waiting for its restart stays down (the broker is about to be stopped). Waits for the
     * injector thread, even when interrupted (the flag is kept). Idempotent.
     */
    public void stop() {
        if (thread == null) {
            return;
        }
        if (stoppedNanos == Long.MIN_VALUE) {
            stoppedNanos = clock.nanoTime();
        }
        Threads.interruptAndJoin(thread);
    }

    /**
     * Every fault asked, in order, with its figures; call after {@link #stop()}.
     *
     * @param everythingArrived whether every message meant to arrive did: all were sent, and each was
     *                          received or refused at its send; if not, the time from the last delivery
     *                          to the end is a gap that never closed (a node that never came back, sends
     *                          failing or blocked to the end)
     */
    public List<FaultReport> reports(DeliveryGaps gaps, RunIntervals intervals, boolean everythingArrived) {
        List<Happening> all;
        synchronized (happenings) {
            all = new ArrayList<>(happenings);
        }
        List<long[]> closed = gaps.longest();
        long[] openGap = null;
        if ((failure != null || !everythingArrived) && stoppedNanos != Long.MIN_VALUE) {
            // the run gave up waiting, or what was still meant to arrive never did: the gap it ended in is still open
            long last = probe.lastDeliveryNanos();
            openGap = new long[] {last, stoppedNanos - last};
        }
        List<FaultReport> reports = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            Happening h = all.get(i);
            long next = i + 1 < all.size() ? all.get(i + 1).askedNanos : Long.MAX_VALUE;
            reports.add(FaultFigures.of(h.event(), h.askedNanos, h.overNanos(), next, closed, openGap,
                    intervals.all()));
        }
        return reports;
    }

    private void run() {
        try {
            for (FaultSpec spec : plan.faults()) {
                due.add(new Action(measureStartNanos + spec.atNanos(), () -> begin(spec)));
            }
            while (!due.isEmpty()) {
                Action next = due.poll();
                watchUntil(next.atNanos());
                next.step().run();
            }
            watchUntil(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            // stop() asks this way; the thread ends here
            Thread.currentThread().interrupt();
        } finally {
            // the resume runs kill -CONT and waits for it: an interrupt pending here would cut that wait short
            boolean interrupted = Thread.interrupted();
            endAll();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void watchUntil(long deadlineNanos) throws InterruptedException {
        long now = clock.nanoTime();
        while (now < deadlineNanos) {
            clock.sleepUntil(Math.min(deadlineNanos, now + WATCH_STEP_NANOS));
            now = clock.nanoTime();
            checkDelivery(now);
        }
    }

    private void checkDelivery(long now) {
        if (failure != null || watchFromNanos == Long.MIN_VALUE || !pausedNow.isEmpty() || !probe.expectingDelivery()) {
            return;
        }
        long quietSince = Math.max(watchFromNanos, probe.lastDeliveryNanos());
        if (now - quietSince > plan.faultTimeout().toNanos()) {
            Happening latest;
            synchronized (happenings) {
                latest = happenings.get(happenings.size() - 1);
            }
            failure = new FaultTimeoutException(Phrase.of("nothing delivered for %.1f s after fault '%s' (%s %s)",
                    (now - quietSince) / 1e9, latest.spec.text(), Setting.FAULT_TIMEOUT,
                    Durations.format(plan.faultTimeout())).render(names));
        }
    }

    private void begin(FaultSpec spec) throws InterruptedException {
        Happening h = new Happening(spec, clock.nanoTime());
        synchronized (happenings) {
            happenings.add(h);
        }
        watchFromNanos = h.askedNanos;
        try {
            switch (spec.kind()) {
                case EXEC:
                    ExecCommand.Result result = ExecCommand.run(spec.command(), plan.faultTimeout());
                    h.doneNanos = clock.nanoTime();
                    h.exitStatus = result.exitStatus();
                    h.output = result.output();
                    if (result.exitStatus() == null) {
                        h.outcome = Phrase.of("failed: still running after %s (%s), killed",
                                Durations.format(plan.faultTimeout()), Setting.FAULT_TIMEOUT).render(names);
                    }
                    finish(h);
                    break;
                case PAUSE:
                    h.node = resolve(spec.node());
                    target.signal(h.node, Signal.STOP);
                    h.doneNanos = clock.nanoTime();
                    pausedNow.add(h);
                    due.add(new Action(h.askedNanos + spec.pause().toNanos(), () -> resume(h)));
                    break;
                case PARTITION:
                    h.node = resolve(spec.node());
                    target.partition(h.node, true);
                    h.doneNanos = clock.nanoTime();
                    pausedNow.add(h);
                    due.add(new Action(h.askedNanos + spec.pause().toNanos(), () -> resume(h)));
                    break;
                case KILL:
                    h.node = resolve(spec.node());
                    target.killNode(h.node);
                    h.doneNanos = clock.nanoTime();
                    if (spec.restartAfter() == null) {
                        finish(h);
                    } else {
                        due.add(new Action(h.doneNanos + spec.restartAfter().toNanos(), () -> restart(h)));
                    }
                    break;
                case SLOW_DISK:
                case DISK_FULL:
                    sicken(h);
                    h.doneNanos = clock.nanoTime();
                    pausedNow.add(h);
                    due.add(new Action(h.askedNanos + spec.pause().toNanos(), () -> resume(h)));
                    break;
                case POWER_LOSS:
                    cutPower(h);
                    h.doneNanos = clock.nanoTime();
                    due.add(new Action(h.doneNanos + spec.restartAfter().toNanos(), () -> restart(h)));
                    break;
                case RESTART:
                    h.node = resolve(spec.node());
                    target.stopNode(h.node);
                    h.doneNanos = clock.nanoTime();
                    restart(h);
                    break;
                default:
                    throw new IllegalStateException("unknown fault kind " + spec.kind());
            }
        } catch (InterruptedException e) {
            h.outcome = "failed: the run ended first";
            throw e;
        } catch (NoSuchNode e) {
            h.outcome = "failed: " + e.getMessage();
            finish(h);
        } catch (Exception e) {
            h.outcome = "failed: " + oneLine(e);
            finish(h);
        }
    }

    /**
     * Kills the node, or every node, and only then cuts each disk: in a power cut of the cluster no
     * node acknowledges anything after the first one died. What each cut took goes to the event.
     */
    private void cutPower(Happening h) throws Exception {
        List<Integer> nodes = nodesHit(h);
        h.restarted = List.copyOf(nodes);
        h.powerCuts = new ArrayList<>();
        for (int node : nodes) {
            target.killNode(node);
        }
        for (int node : nodes) {
            h.powerCuts.add(NodePowerCut.of(node, target.powerCut(node)));
        }
    }

    /**
     * Every node that keeps messages on a disk for node=all (a fault of the disk: a Pulsar cluster's
     * bookies, not its brokers), else the one resolved now (then the event's node).
     */
    private List<Integer> nodesHit(Happening h) throws Exception {
        List<Integer> nodes = new ArrayList<>();
        if (h.spec.node().rule() == NodeChoice.Rule.ALL) {
            if (target.nodeCount() == 0) {
                throw new NoSuchNode("no local broker to act on");
            }
            nodes.addAll(target.diskNodes());
        } else {
            h.node = resolve(h.spec.node());
            nodes.add(h.node);
        }
        return nodes;
    }

    /**
     * Makes the disk of the node, or of every node, slow or full. Should one fail, those already
     * sick are healed at once: the fault failed, and no run may end with a sick disk.
     */
    private void sicken(Happening h) throws Exception {
        h.sickDisks = new ArrayList<>();
        for (int node : nodesHit(h)) {
            try {
                if (h.spec.kind() == FaultKind.SLOW_DISK) {
                    target.slowDisk(node, h.spec.delay());
                } else {
                    target.fillDisk(node);
                }
            } catch (Exception e) {
                try {
                    heal(h);
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
            h.sickDisks.add(node);
        }
    }

    /** Heals every disk the fault made sick, each even when another fails; throws the first failure. */
    private void heal(Happening h) {
        RuntimeException failure = null;
        for (int node : h.sickDisks) {
            try {
                if (h.spec.kind() == FaultKind.SLOW_DISK) {
                    target.healDisk(node);
                } else {
                    target.freeDisk(node);
                }
            } catch (Exception e) {
                RuntimeException wrapped = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                if (failure == null) {
                    failure = wrapped;
                } else {
                    failure.addSuppressed(wrapped);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void resume(Happening h) {
        try {
            undo(h);
            pausedNow.remove(h);
        } catch (RuntimeException e) {
            // stays in pausedNow: endAll tries again
            h.outcome = "failed: " + (h.spec.kind().sickensDisk() ? "heal" : "resume") + ": " + oneLine(e);
        }
        h.endedNanos = clock.nanoTime();
        watchFromNanos = h.endedNanos;
        finish(h);
    }

    /** Ends a pause, a partition or a sick disk. */
    private void undo(Happening h) {
        if (h.spec.kind() == FaultKind.PARTITION) {
            target.partition(h.node, false);
        } else if (h.spec.kind().sickensDisk()) {
            heal(h);
        } else {
            target.signal(h.node, Signal.CONT);
        }
    }

    private void restart(Happening h) throws InterruptedException {
        try {
            if (h.restarted != null) {
                target.restartNodes(h.restarted, plan.faultTimeout());
            } else {
                target.restartNode(h.node, plan.faultTimeout());
            }
            h.endedNanos = clock.nanoTime();
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            h.outcome = "failed: restart: " + oneLine(e);
        }
        finish(h);
    }

    /** The thread is ending: resume what is paused, heal what is sick, and record what was asked but is not over. */
    private void endAll() {
        for (Happening h : new ArrayList<>(pausedNow)) {
            try {
                undo(h);
                pausedNow.remove(h);
                h.endedNanos = clock.nanoTime();
            } catch (RuntimeException e) {
                h.outcome = "failed: " + (h.spec.kind().sickensDisk() ? "heal" : "resume") + ": " + oneLine(e);
            }
        }
        List<Happening> all;
        synchronized (happenings) {
            all = new ArrayList<>(happenings);
        }
        for (Happening h : all) {
            if (!h.finished) {
                finish(h);
            }
        }
    }

    private void finish(Happening h) {
        h.finished = true;
        recorded.accept(h.event());
    }

    private int resolve(NodeChoice choice) throws Exception {
        int nodes = target.nodeCount();
        if (nodes == 0) {
            throw new NoSuchNode("no local broker to act on");
        }
        if (choice.rule() == NodeChoice.Rule.NAMED) {
            // the run's plan numbers every named node before anything starts (FaultSpec.withNode)
            throw new IllegalStateException("node=" + choice.label() + " was never turned into a node number");
        }
        if (choice.rule() == NodeChoice.Rule.NUMBER) {
            if (choice.number() > nodes) {
                throw new NoSuchNode("node " + choice.number() + " does not exist: the broker has " + nodes
                        + " node" + (nodes == 1 ? "" : "s"));
            }
            return choice.number();
        }
        if (nodes == 1) {
            return 1;
        }
        if (choice.rule() == NodeChoice.Rule.COORDINATOR) {
            OptionalInt coordinator = target.coordinatorNode();
            if (coordinator.isEmpty()) {
                throw new NoSuchNode("no transaction coordinator found (the run commits no transactions, or none "
                        + "coordinates now)");
            }
            return coordinator.getAsInt();
        }
        OptionalInt leader = target.leaderNode();
        if (leader.isEmpty()) {
            throw new NoSuchNode("no leader found");
        }
        if (choice.rule() == NodeChoice.Rule.LEADER) {
            return leader.getAsInt();
        }
        // the lowest-numbered follower: the same node in every run of one cluster
        return leader.getAsInt() == 1 ? 2 : 1;
    }

    private double seconds(long nanos) {
        return (nanos - measureStartNanos) / 1e9;
    }

    private String oneLine(Throwable t) {
        String message = t.getMessage() == null ? t.getClass().getName()
                : t.getClass().getSimpleName() + ": " + UserError.messageOf(t, names);
        return message.replaceAll("\\s*\\R\\s*", " ");
    }

    /** The node a fault names is not there now: the fault fails, the run goes on. */
    private static final class NoSuchNode extends Exception {
        private static final long serialVersionUID = 1L;

        NoSuchNode(String message) {
            super(message);
        }
    }

    private interface Step {
        void run() throws InterruptedException;
    }

    private record Action(long atNanos, Step step) {
    }

    /** One fault as it happens; fields written on the injector thread only. */
    private final class Happening {
        final FaultSpec spec;
        final long askedNanos;
        Integer node;
        long doneNanos = Long.MIN_VALUE;
        long endedNanos = Long.MIN_VALUE;
        String outcome = FaultEvent.DONE;
        Integer exitStatus;
        String output;
        /** A power loss's nodes, started again together; null for other kinds. */
        List<Integer> restarted;
        /** A power loss's cuts so far; null for other kinds. */
        List<NodePowerCut> powerCuts;
        /** The nodes whose disk a slow-disk or disk-full made sick, to heal; null for other kinds. */
        List<Integer> sickDisks;
        /** Read by {@link #awaitNodesServing} on another thread. */
        volatile boolean finished;

        Happening(FaultSpec spec, long askedNanos) {
            this.spec = spec;
            this.askedNanos = askedNanos;
        }

        /**
         * When its effect on the node was over: a pause resumed, a restarted node back, a kill, a power
         * cut or a command done; never for a fault that did not get there.
         */
        long overNanos() {
            long over = spec.kind().lasts() || spec.kind() == FaultKind.RESTART ? endedNanos : doneNanos;
            return over == Long.MIN_VALUE ? Long.MAX_VALUE : over;
        }

        FaultEvent event() {
            return new FaultEvent(spec.text(), spec.kind().label(), node, seconds(askedNanos),
                    doneNanos == Long.MIN_VALUE ? null : seconds(doneNanos),
                    endedNanos == Long.MIN_VALUE ? null : seconds(endedNanos), outcome, exitStatus, output, powerCuts);
        }
    }
}
