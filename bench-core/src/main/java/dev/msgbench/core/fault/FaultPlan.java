package dev.msgbench.core.fault;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import dev.msgbench.core.broker.DataDisks;

/**
 * The faults of a run, in time order, and how long the system may deliver nothing after one
 * before the run gives up with partial results.
 */
public record FaultPlan(List<FaultSpec> faults, Duration faultTimeout) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    public static final FaultPlan NONE = new FaultPlan(List.of(), DEFAULT_TIMEOUT);

    public FaultPlan {
        Objects.requireNonNull(faultTimeout, "faultTimeout");
        if (faultTimeout.isZero() || faultTimeout.isNegative()) {
            throw new IllegalArgumentException("fault timeout must be longer than 0: " + faultTimeout);
        }
        faults = faults.stream().sorted(Comparator.comparing(FaultSpec::at)).toList();
    }

    public boolean isEmpty() {
        return faults.isEmpty();
    }

    /**
     * Whether a fault acts on a node's disk ({@link FaultKind#onDisk}): the local broker's nodes must
     * then run on forgetful disks from their first write on.
     */
    public boolean needsForgetfulDisks() {
        return faults.stream().anyMatch(f -> f.kind().onDisk());
    }

    /**
     * What the local broker's nodes must keep their data on: write-through forgetful disks for a
     * full disk (only then does the broker's own write fail with ENOSPC, as on ext4), forgetful disks
     * behind the writeback cache for the other faults of the disk, plain ones otherwise.
     */
    public DataDisks dataDisks() {
        if (faults.stream().anyMatch(f -> f.kind() == FaultKind.DISK_FULL)) {
            return DataDisks.FORGETFUL_WRITE_THROUGH;
        }
        return needsForgetfulDisks() ? DataDisks.FORGETFUL : DataDisks.PLAIN;
    }
}
