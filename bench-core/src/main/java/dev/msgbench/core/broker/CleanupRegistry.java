package dev.msgbench.core.broker;

import java.util.ArrayList;
import java.util.List;

/**
 * The one shutdown hook of the suite: on Ctrl+C or an exit with resources still open, it closes
 * every registered resource, newest first (a client before the broker it talks to).
 *
 * <p>A single hook, rather than one per broker, because the JVM runs hooks concurrently and in no
 * order.
 */
public final class CleanupRegistry {

    /** Returned by {@link #register}; deregister after closing the resource normally. */
    public interface Registration {
        void deregister();
    }

    private static final Object LOCK = new Object();
    private static final List<Entry> ENTRIES = new ArrayList<>();
    private static boolean hookInstalled;
    private static boolean shuttingDown;

    private CleanupRegistry() {
    }

    /**
     * Registers {@code resource} to be closed at JVM exit.
     *
     * @param name how a failure to close names it, e.g. "kafka cluster of 3 nodes"
     * @throws IllegalStateException when the JVM is already shutting down: start nothing new then
     */
    public static Registration register(String name, AutoCloseable resource) {
        Entry entry = new Entry(name, resource);
        synchronized (LOCK) {
            if (shuttingDown) {
                throw new IllegalStateException("the JVM is shutting down; not starting " + name);
            }
            if (!hookInstalled) {
                Runtime.getRuntime().addShutdownHook(new Thread(CleanupRegistry::closeAll, "msgbench-cleanup"));
                hookInstalled = true;
            }
            ENTRIES.add(entry);
        }
        return () -> {
            synchronized (LOCK) {
                ENTRIES.remove(entry);
            }
        };
    }

    private static void closeAll() {
        List<Entry> entries;
        synchronized (LOCK) {
            shuttingDown = true;
            entries = new ArrayList<>(ENTRIES);
        }
        for (int i = entries.size() - 1; i >= 0; i--) {
            Entry entry = entries.get(i);
            try {
                entry.resource.close();
            } catch (Exception | Error e) {
                // the JVM is exiting: stderr is the only place left to say so
                System.err.println("msgbench: could not close " + entry.name + " at exit: " + e);
            }
        }
    }

    /** Identity, not equality: the same resource may be registered twice under two names. */
    private static final class Entry {
        final String name;
        final AutoCloseable resource;

        Entry(String name, AutoCloseable resource) {
            this.name = name;
            this.resource = resource;
        }
    }
}
