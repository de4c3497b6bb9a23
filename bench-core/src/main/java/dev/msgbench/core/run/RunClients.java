package dev.msgbench.core.run;

import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.Subscriber;

/** The run's publishers and subscribers, closed together. */
final class RunClients {
    final List<Publisher> publishers = new ArrayList<>();
    final List<Subscriber> subscribers = new ArrayList<>();

    /**
     * Closes every client, whatever the others do; returns the first failure to close (the
     * rest suppressed in it), or null. When the run failed already, failures to close are
     * suppressed in {@code primary} instead and null is returned.
     */
    Exception closeAll(Throwable primary) {
        Exception first = null;
        List<AutoCloseable> all = new ArrayList<>(publishers);
        all.addAll(subscribers);
        for (AutoCloseable closeable : all) {
            try {
                closeable.close();
            } catch (Exception e) {
                if (primary != null) {
                    primary.addSuppressed(e);
                } else if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        return first;
    }
}
