package dev.msgbench.nats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.msgbench.core.FirstFailure;

/**
 * A run's connections by number ({@link dev.msgbench.core.driver.RunPlan#producerConnectionOf},
 * {@code consumerConnectionOf}): the first user opens one, later users of the same number share
 * it, and it closes when its last user lets go, or with the system ({@link #closeAll}) for those
 * still open after a failed run. With a connection per producer and per consumer each number has
 * one user, so a connection lives exactly as long as its one publisher or subscriber, as before.
 *
 * <p>Only opening and closing take the lock: a user holds its {@link Lease} and reads its link
 * directly.
 */
final class SharedLinks<T extends AutoCloseable> {

    /** Opens link number {@code index}. */
    interface Opener<T> {
        T open(int index) throws Exception;
    }

    private final Map<Integer, Entry<T>> open = new HashMap<>();

    private static final class Entry<T> {
        final T link;
        int users;

        Entry(T link) {
            this.link = link;
        }
    }

    /** One user's hold on a link: closing it lets go, once. */
    final class Lease implements AutoCloseable {
        private final int index;
        private final T link;
        private boolean released;

        private Lease(int index, T link) {
            this.index = index;
            this.link = link;
        }

        T link() {
            return link;
        }

        @Override
        public void close() throws Exception {
            release(this);
        }
    }

    /** Link number {@code index}, opened with {@code opener} unless a user holds it already. */
    synchronized Lease acquire(int index, Opener<T> opener) throws Exception {
        Entry<T> e = open.get(index);
        if (e == null) {
            e = new Entry<>(opener.open(index));
            open.put(index, e);
        }
        e.users++;
        return new Lease(index, e.link);
    }

    private void release(Lease lease) throws Exception {
        T last = null;
        synchronized (this) {
            if (lease.released) {
                return;
            }
            lease.released = true;
            Entry<T> e = open.get(lease.index);
            if (e != null && e.link == lease.link && --e.users == 0) {
                open.remove(lease.index);
                last = e.link;
            }
        }
        // outside the lock: closing a connection may wait for its server
        if (last != null) {
            last.close();
        }
    }

    /** Closes every link still open; the first failure is thrown once all were tried. */
    void closeAll(String what) throws Exception {
        List<T> left;
        synchronized (this) {
            left = new ArrayList<>();
            for (Entry<T> e : open.values()) {
                left.add(e.link);
            }
            open.clear();
        }
        FirstFailure failures = new FirstFailure();
        for (T link : left) {
            try {
                link.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failures.add(e);
            } catch (Exception e) {
                failures.add(e);
            }
        }
        failures.throwIfAny(what);
    }

    /**
     * A system's close: every link {@code pools} still hold (publishers and subscribers the run did
     * not close), then {@code last} (the setup connection), whatever failed before; throws the first
     * failure, the later ones suppressed.
     */
    static void closeEach(List<SharedLinks<?>> pools, AutoCloseable last) throws Exception {
        Exception first = null;
        for (SharedLinks<?> pool : pools) {
            try {
                pool.closeAll("a connection left open");
            } catch (Exception e) {
                first = keep(first, e);
            }
        }
        try {
            last.close();
        } catch (Exception e) {
            first = keep(first, e);
        }
        if (first != null) {
            throw first;
        }
    }

    private static Exception keep(Exception first, Exception later) {
        if (first == null) {
            return later;
        }
        first.addSuppressed(later);
        return first;
    }
}
