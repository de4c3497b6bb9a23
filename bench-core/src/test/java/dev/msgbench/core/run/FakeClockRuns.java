package dev.msgbench.core.run;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.fault.FaultTarget;
import dev.msgbench.core.testing.ManualClock;

/**
 * Engine runs on a {@link ManualClock}: seconds of schedule take milliseconds, and every time in
 * them is exact, as long as one thread at a time moves the clock (one producer stream, a system
 * that answers on the publishing thread).
 */
public final class FakeClockRuns {

    private FakeClockRuns() {
    }

    public static LoadRun loadRun(RunSpec config, MessagingSystem system, ManualClock clock, PrintStream out) {
        return loadRun(config, RunContext.NONE, system, clock, out);
    }

    /** As {@link #loadRun}, with {@code context} around the run; the fault injector and the backlog gate watch the clock. */
    public static LoadRun loadRun(RunSpec config, RunContext context, MessagingSystem system, ManualClock clock,
                                  PrintStream out) {
        return new LoadRun(config, context, system, clock, clock.watcher(), FakeClockRuns::untilStopped, clock::watcher,
                out, null, false);
    }

    /** As {@link #loadRun}, with faults acting on {@code target}; the injector watches the clock as the monitor does. */
    public static LoadRun loadRun(RunSpec config, MessagingSystem system, FaultTarget target, ManualClock clock,
                                  PrintStream out) {
        return loadRun(config, RunContext.NONE.withFaultTarget(target), system, clock, out);
    }

    /** As {@link #loadRun}, the consumers held back until {@code backlog} was sent; the gate watches the clock. */
    public static LoadRun loadRun(RunSpec config, MessagingSystem system, ManualClock clock, PrintStream out,
                                  Backlog backlog) {
        return loadRun(config.withBacklog(backlog), system, clock, out);
    }

    /** The hiccup meter's pause: a clock that never stalls leaves it nothing to measure, so it waits for its stop. */
    private static void untilStopped(long nanos) throws InterruptedException {
        new CountDownLatch(1).await();
    }
}
