package dev.msgbench.core;

/** Waiting for the engine's own helper threads. */
public final class Threads {

    private Threads() {
    }

    /**
     * Interrupts {@code thread} and waits until it has ended, even if the caller is interrupted
     * meanwhile: what the thread does on its way out (resume a paused broker, take a last sample)
     * must not be cut short. The caller's interrupt is kept for the caller.
     */
    public static void interruptAndJoin(Thread thread) {
        thread.interrupt();
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
