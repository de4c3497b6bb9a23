package dev.msgbench.core.testing;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

/**
 * Waits for the state of something outside the test JVM that announces nothing: a broker
 * electing a leader, a child process writing its log. There is no event to wait on, so the
 * state is asked again every {@value #INTERVAL_MILLIS} ms; the test's own timeout bounds the
 * wait. Anything inside the JVM is awaited on latches or the fake clock instead.
 */
public final class Poll {

    private static final long INTERVAL_MILLIS = 20;

    private Poll() {
    }

    /** Returns once {@code condition} holds. */
    public static void until(BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            Thread.sleep(INTERVAL_MILLIS);
        }
    }

    /**
     * The first non-null answer of {@code probe}; a probe that throws (a client reconnecting
     * meanwhile) counts as no answer yet.
     */
    public static <T> T value(Callable<T> probe) throws InterruptedException {
        while (true) {
            try {
                T value = probe.call();
                if (value != null) {
                    return value;
                }
            } catch (Exception e) {
                // not yet: the next round asks again
            }
            Thread.sleep(INTERVAL_MILLIS);
        }
    }

    /**
     * Like {@link #value}, but gives up after {@code limit} with the probe's last failure as the
     * reason: for state that should settle soon after an event and may never come (a durable
     * queue that did not survive a kill), so the test fails saying why, not at its timeout.
     */
    public static <T> T valueWithin(Duration limit, Callable<T> probe) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        Exception last = null;
        while (true) {
            try {
                T value = probe.call();
                if (value != null) {
                    return value;
                }
            } catch (Exception e) {
                last = e;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("no answer within " + limit.toSeconds() + " s"
                        + (last == null ? "" : "; last: " + describe(last)), last);
            }
            Thread.sleep(INTERVAL_MILLIS);
        }
    }

    /** The client's wrapper often says less than its cause (amqp-client's IOException around a 404). */
    private static String describe(Exception e) {
        return e.getCause() == null ? e.toString() : e + " caused by " + e.getCause();
    }
}
