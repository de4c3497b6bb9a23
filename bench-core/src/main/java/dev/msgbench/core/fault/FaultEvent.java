package dev.msgbench.core.fault;

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
 */
public record FaultEvent(String fault, String kind, Integer node, double askedAtSeconds, Double doneAtSeconds,
                         Double endedAtSeconds, String outcome, Integer exitStatus, String output) {

    public static final String DONE = "done";

    /** The comment line latency.hlog keeps for it (the writer adds the leading #). */
    public String timelineComment() {
        StringBuilder sb = new StringBuilder("[fault ").append(kind);
        if (node != null) {
            sb.append(" node=").append(node);
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
        if (!DONE.equals(outcome)) {
            sb.append(' ').append(outcome);
        }
        return sb.append(']').toString();
    }
}
