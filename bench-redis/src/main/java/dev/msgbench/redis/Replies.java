package dev.msgbench.redis;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waiting for outstanding replies before a connection closes. */
final class Replies {

    private Replies() {
    }

    /**
     * Waits up to {@code timeout} for {@code last} to complete, however it completes: its outcome
     * was already reported through its own callback, and on timeout the close goes ahead and the
     * commands still waiting are reported failed by lettuce.
     */
    static void awaitQuietly(CompletionStage<?> last, Duration timeout) throws InterruptedException {
        try {
            last.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // reported by the command's own callback (a failed send or subscriber error), or, after a
            // timeout, by the cancellation that closing causes: nothing is lost by going on
            return;
        }
    }
}
