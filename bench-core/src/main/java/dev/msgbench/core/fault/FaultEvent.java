package dev.msgbench.core.fault;

import java.util.List;
import java.util.Locale;

/**
 * What one fault did and when, as result.json keeps it. Times are seconds from the start of the
 * measured window, on the run's clock.
 *
 * @param fault          the --fault value
 * @param node           the node hit, resolved when the fault was due; null for exec and for a
 *                       fault whose node could not be found
 * @param askedAtSeconds when the injector set about it
 * @param doneAtSeconds  when the action returned (the signal sent, the node gone, the command
 *                       ended); null if it never returned
 * @param endedAtSeconds when the node was back (resumed, or restarted and serving); null where
 *                       there is no end (exec, kill with restart-after=never) or it never came
 * @param outcome        "done", or "failed: " and why, on one line
 * @param exitStatus     the exec command's exit status; null for other kinds and a command that
 *                       did not end in time
 * @param output         the exec command's stdout and stderr, cut to a few KiB; null for other kinds
 * @param powerCuts      a power loss's: what the cut took from each node's disk, in node order (every
 *                       node for node=all, whose {@code node} is null); null for other kinds, and
 *                       for a power loss that failed before it killed a node
 */
public record FaultEvent(String fault, String kind, Integer node, double askedAtSeconds, Double doneAtSeconds,
                         Double endedAtSeconds, String outcome, Integer exitStatus, String output,
                         List<NodePowerCut> powerCuts) {

    public static final String DONE = "done";

    public FaultEvent {
        powerCuts = powerCuts == null ? null : List.copyOf(powerCuts);
    }

    /** A fault that cuts no power. */
    public FaultEvent(String fault, String kind, Integer node, double askedAtSeconds, Double doneAtSeconds,
                      Double endedAtSeconds, String outcome, Integer exitStatus, String output) {
        this(fault, kind, node, askedAtSeconds, doneAtSeconds, endedAtSeconds, outcome, exitStatus, output, null);
    }

    /**
     * Whether it hit every node (node=all): a power loss that cut, or a slow or full disk that was
     * done (which names no node then).
     */
    public boolean everyNode() {
        return node == null && (powerCuts != null || doneAtSeconds != null
                && (FaultKind.SLOW_DISK.label().equals(kind) || FaultKind.DISK_FULL.label().equals(kind)));
    }

    /** The comment line latency.hlog keeps for it (the writer adds the leading #). */
    public String timelineComment() {
        StringBuilder sb = new StringBuilder("[fault ").append(kind);
        if (node != null) {
            sb.append(" node=").append(node);
        } else if (everyNode()) {
            sb.append(" node=all");
        }
        sb.append(String.format(Locale.US, " asked %.3fs", askedAtSeconds));
        if (doneAtSeconds != null) {
            sb.append(String.format(Locale.US, " done %.3fs", doneAtSeconds));
        }
        if (endedAtSeconds != null) {
            sb.append(String.format(Locale.US, " ended %.3fs", endedAtSeconds));
        }
        if (exitStatus != null) {
            sb.append(" exit ").append(exitStatus);
        }
        if (powerCuts != null && !powerCuts.isEmpty()) {
            sb.append(" rolled back ").append(rolledBack());
        }
        if (!DONE.equals(outcome)) {
            sb.append(' ').append(outcome);
        }
        return sb.append(']').toString();
    }

    /**
     * What the power cuts took, over every node cut: "3 files, 1,234 bytes of unsynced appends, 56
     * bytes restored, 2 names undone".
     */
    public String rolledBack() {
        long files = 0;
        long discarded = 0;
        long restored = 0;
        long undone = 0;
        for (NodePowerCut cut : powerCuts) {
            files += cut.files();
            discarded += cut.discardedBytes();
            restored += cut.restoredBytes();
            undone += cut.namespaceUndone();
        }
        return String.format(Locale.US, "%,d files, %,d bytes of unsynced appends, %,d bytes restored, %,d names undone",
                files, discarded, restored, undone);
    }
}
