package dev.msgbench.core.broker;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;

/**
 * The main class of every child JVM: ends the child when the JVM that started it dies, then runs
 * the real main class.
 *
 * <p>Shutdown hooks do not run when the owner is killed with SIGKILL (or the OOM killer), and a
 * broker left running holds its ports and disk. Usage:
 * {@code ParentWatchdog PARENT_PID MAIN_CLASS [ARGS...]}.
 *
 * <p>The parent is polled rather than awaited with {@code onExit()}: for a process that is not our
 * child that also polls (every 0.3 to 5 s), and it treats a zombie parent as alive.
 */
public final class ParentWatchdog {

    /** The exit code when the owner died; the real main's own code otherwise. */
    static final int EXIT_OWNER_GONE = 3;

    private static final long POLL_MILLIS = 250;
    /** After this long in shutdown hooks (a broker waiting for a quorum that is gone), halt. */
    private static final long HALT_AFTER_MILLIS = 10_000;

    private ParentWatchdog() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length < 2) {
            System.err.println("usage: ParentWatchdog PARENT_PID MAIN_CLASS [ARGS...]");
            System.exit(2);
        }
        long parentPid = Long.parseLong(args[0]);
        Optional<ProcessHandle> parent = ProcessHandle.of(parentPid);
        if (parent.isEmpty() || !ProcStat.isRunning(parent.get())) {
            ownerGone(parentPid, args[1]);
        }
        Thread watchdog = new Thread(() -> watch(parent.get(), args[1]), "msgbench-parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();

        Method main = Class.forName(args[1]).getMethod("main", String[].class);
        // the java launcher runs main() of a class that is not public; so must we
        main.setAccessible(true);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 2, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** A handle remembers its process's start time, so a reused pid does not count as alive. */
    private static void watch(ProcessHandle parent, String mainClass) {
        while (ProcStat.isRunning(parent)) {
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                // nothing in the child knows this thread; an interrupt can only mean "stop watching"
                Thread.currentThread().interrupt();
                return;
            }
        }
        ownerGone(parent.pid(), mainClass);
    }

    private static void ownerGone(long parentPid, String mainClass) {
        System.err.println("msgbench: owner JVM " + parentPid + " is gone; stopping " + mainClass);
        Thread halter = new Thread(() -> {
            try {
                Thread.sleep(HALT_AFTER_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Runtime.getRuntime().halt(EXIT_OWNER_GONE);
        }, "msgbench-halter");
        halter.setDaemon(true);
        halter.start();
        // exit, not halt: the broker's own shutdown hook closes its logs cleanly
        System.exit(EXIT_OWNER_GONE);
    }
}
