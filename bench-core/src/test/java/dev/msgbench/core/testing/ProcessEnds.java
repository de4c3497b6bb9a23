package dev.msgbench.core.testing;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** Waits for processes to end on their exit events, not by polling them on a timer. */
public final class ProcessEnds {

    private ProcessEnds() {
    }

    /**
     * Returns when every one of {@code processes} has ended (children or not: the JDK watches
     * them); fails after {@code within}, saying {@code what} was expected.
     */
    public static void await(Collection<ProcessHandle> processes, Duration within, Supplier<String> what)
            throws InterruptedException {
        CompletableFuture<?>[] exits = processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(exits).get(within.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("not within " + within.toSeconds() + " s: " + what.get());
        } catch (ExecutionException e) {
            throw new AssertionError("watching " + processes + " failed", e.getCause());
        }
    }
}
