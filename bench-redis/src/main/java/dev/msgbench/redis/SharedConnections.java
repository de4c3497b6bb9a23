package dev.msgbench.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The connections that producer streams (or consumers) share, by connection number (
 * {@link dev.msgbench.core.driver.RunPlan#producerConnectionOf}, {@code consumerConnectionOf}):
 * each opened by the first stream or consumer that needs it.
 */
final class SharedConnections<T extends AutoCloseable> {

    /** Opens connection {@code number}. */
    interface Opener<T> {
        T open(int number) throws Exception;
    }

    private final Map<Integer, T> open = new TreeMap<>();

    synchronized T get(int number, Opener<T> opener) throws Exception {
        T c = open.get(number);
        if (c == null) {
            c = opener.open(number);
            open.put(number, c);
        }
        return c;
    }

    /**
     * Closes every connection opened, whoever still uses it (their users close them as they end; a
     * failed run may leave some open), adding what fails to {@code failures}.
     */
    void closeAll(List<Exception> failures) {
        List<T> all;
        synchronized (this) {
            all = new ArrayList<>(open.values());
        }
        for (T c : all) {
            try {
                c.close();
            } catch (Exception e) {
                failures.add(e);
            }
        }
    }
}
