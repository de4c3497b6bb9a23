package dev.msgbench.cli.report;

import java.util.Locale;

import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;

/**
 * Acknowledged messages lost after one kind of fault, over a cell's runs of it: counts added, so
 * three runs of 10,000 acknowledged and one lost read 1 of 30,000.
 *
 * @param incomplete runs among them that did not complete (a system that never came back): their
 *                   counts are as far as the run got, which the table says
 */
record LossFigure(long acknowledgedLost, long acknowledged, int runs, int incomplete) {

    static LossFigure of(RunResult result) {
        return new LossFigure(result.counts().acknowledgedLost(), result.counts().acknowledged(), 1,
                result.status() == RunStatus.COMPLETE ? 0 : 1);
    }

    LossFigure plus(LossFigure other) {
        return new LossFigure(acknowledgedLost + other.acknowledgedLost, acknowledged + other.acknowledged,
                runs + other.runs, incomplete + other.incomplete);
    }

    /** Percent of those acknowledged; 0 when none was (nothing promised, nothing broken). */
    double sharePercent() {
        return acknowledged == 0 ? 0 : 100.0 * acknowledgedLost / acknowledged;
    }

    /** "131,418 of 930,005 (14.13%)", "0 of 50,000", with the runs where more than one. */
    String text() {
        String share = acknowledgedLost == 0 ? "" : String.format(Locale.US, " (%.2f%%)", sharePercent());
        String runs = this.runs == 1 ? "" : ", " + this.runs + " runs";
        String ended = incomplete == 0 ? "" : ", " + incomplete + " of them not complete";
        return String.format(Locale.US, "%,d of %,d%s%s%s", acknowledgedLost, acknowledged, share, runs, ended);
    }
}
