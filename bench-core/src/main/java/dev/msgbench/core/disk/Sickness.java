package dev.msgbench.core.disk;

import java.time.Duration;
import java.util.Map;

/**
 * What ails a forgetful disk: the daemon's report after each sickness command.
 *
 * @param slowDurableOps added to every fsync, fdatasync and fsync of a directory, and so to every
 *                       write to a file opened with {@code SYNC} or {@code DSYNC}, and to
 *                       {@code MappedByteBuffer.force()}
 * @param slowWrites     added to every write request that reaches the daemon (with
 *                       {@link PageCache#WRITE_BACK}, one per write-back of up to 1 MiB)
 * @param full           whether what needs a new block fails with ENOSPC
 * @param heldRequests   requests that a slow disk held when the daemon answered
 */
public record Sickness(Duration slowDurableOps, Duration slowWrites, boolean full, long heldRequests) {

    /** Neither slow nor full. */
    public boolean healthy() {
        return slowDurableOps.isZero() && slowWrites.isZero() && !full;
    }

    /** Reads "sick slow=NS slow-writes=NS full=0|1 held=H". */
    static Sickness parse(String report) {
        Map<String, Long> values = PowerCut.fields(report, "sick");
        return new Sickness(Duration.ofNanos(values.get("slow")), Duration.ofNanos(values.get("slow-writes")),
                values.get("full") != 0, values.get("held"));
    }

    @Override
    public String toString() {
        if (healthy()) {
            return "healthy";
        }
        return "fsyncs slowed by " + slowDurableOps + ", writes by " + slowWrites + (full ? ", full" : ", not full");
    }
}
