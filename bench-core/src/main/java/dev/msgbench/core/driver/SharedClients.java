package dev.msgbench.core.driver;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.msgbench.core.FirstFailure;

/**
 * A run's clients (connections, producers, consumers) by connection number
 * ({@link RunPlan#producerConnectionOf}, {@link RunPlan#consumerConnectionOf}), for a driver whose
 * logical producers or consumers share them: the first user opens one, later users of the same
 * number share it, and it closes when its last user lets go, or with the system ({@link #closeAll})
 * for those still open after a failed run.
 *
 * <p>Only opening and closing take the lock: a user holds its {@link Lease} and uses its client
 * directly.
 *
 * @param <T> the client
 */
public final class SharedClients<T> {

    /** Opens client number {@code index}. */
    public interface Opener<T> {
        T open(int index) throws Exception;
    }

    /** Closes a client that no user holds any more. */
    public interface Closer<T> {
        void close(T client) throws Exception;
    }

    private final Closer<T> closer;
    private final Map<Integer, Entry<T>> open = new HashMap<>();

    private static final class Entry<T> {
        final T client;
        int users;

        Entry(T client) {
            this.client = client;
        }
    }

    public SharedClients(Closer<T> closer) {
        this.closer = closer;
    }

    /** Clients that close themselves. */
    public static <T extends AutoCloseable> SharedClients<T> ofCloseables() {
        return new SharedClients<>(AutoCloseable::close);
    }

    /** One user's hold on a client: closing it lets go, once. */
    public final class Lease implements AutoCloseable {
        private final int index;
        private final T client;
        private boolean released;

        private Lease(int index, T client) {
            this.index = index;
            this.client = client;
        }

        public T client() {
            return client;
        }

        @Override
        public void close() throws Exception {
            release(this);
        }
    }

    /** Client number {@code index}, opened with {@code opener} unless a user holds it already. */
    public synchronized Lease acquire(int index, Opener<T> opener) throws Exception {
        Entry<T> e = open.get(index);
        if (e == null) {
            e = new Entry<>(opener.open(index));
            open.put(index, e);
        }
        e.users++;
        return new Lease(index, e.client);
    }

    /** How many clients are open: the connections the run holds. */
    public synchronized int openCount() {
        return open.size();
    }

    private void release(Lease lease) throws Exception {
        T last = null;
        synchronized (this) {
            if (lease.released) {
                return;
            }
            lease.released = true;
            Entry<T> e = open.get(lease.index);
            if (e != null && e.client == lease.client && --e.users == 0) {
                open.remove(lease.index);
                last = e.client;
            }
        }
        // outside the lock: closing a client may wait for its server
        if (last != null) {
            closer.close(last);
        }
    }

    /** Closes every client still open; the first failure is thrown once all were tried. */
    public void closeAll(String what) throws Exception {
        List<T> left = new ArrayList<>();
        synchronized (this) {
            for (Entry<T> e : open.values()) {
                left.add(e.client);
            }
            open.clear();
        }
        FirstFailure failures = new FirstFailure();
        for (T client : left) {
            try {
                closer.close(client);
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
     * A system's close: every client {@code pools} still hold (publishers and subscribers the run did
     * not close), then {@code last} (e.g. the setup connection), whatever failed before; throws the
     * first failure, the later ones suppressed.
     */
    public static void closeEach(List<SharedClients<?>> pools, AutoCloseable last) throws Exception {
        Exception first = null;
        for (SharedClients<?> pool : pools) {
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
