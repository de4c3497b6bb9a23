package dev.msgbench.core.testing;

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
}
