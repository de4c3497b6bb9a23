package dev.msgbench.cli.repeats;

import java.util.Arrays;
import java.util.List;

import dev.msgbench.core.analysis.RunsVerdict;

/**
 * The runs of one thing repeated (a tune's flag set, a workload's cell): each complete run's own
 * figures, for the median run, the spread (lowest..highest run) and a verdict against another
 * such set. A run that failed or was interrupted is no sample of what was repeated: it is counted
 * in {@code total} and left out of everything else.
 *
 * @param name     as the tables name it
 * @param complete the complete runs, in the order made
 * @param total    every run made, failed ones included
 */
public record RepeatedRuns<R>(String name, List<R> complete, int total) {

    public RepeatedRuns {
        complete = List.copyOf(complete);
    }

    /** The figure of each complete run that measured it. */
    public double[] values(RunFigure<R> figure) {
        return complete.stream().mapToDouble(figure::of).filter(v -> !Double.isNaN(v)).toArray();
    }

    public double median(RunFigure<R> figure) {
        return RunsVerdict.median(values(figure));
    }

    public double lowest(RunFigure<R> figure) {
        return Arrays.stream(values(figure)).min().orElse(Double.NaN);
    }

    public double highest(RunFigure<R> figure) {
        return Arrays.stream(values(figure)).max().orElse(Double.NaN);
    }

    /** "5 of 6". */
    public String completeOfTotal() {
        return complete.size() + " of " + total;
    }

    /** "0.250 [0.240..0.260]": the median run and the lowest and highest; one value for one run. */
    public String spread(RunFigure<R> figure) {
        double[] values = values(figure);
        if (values.length <= 1) {
            return figure.format(values.length == 0 ? Double.NaN : values[0]);
        }
        return figure.format(median(figure)) + " [" + figure.format(lowest(figure)) + ".."
                + figure.format(highest(figure)) + "]";
    }

    /** These runs against the base's, for one figure. */
    public RunsVerdict.Verdict against(RepeatedRuns<R> base, RunFigure<R> figure) {
        return RunsVerdict.judge(base.values(figure), values(figure), figure.higherIsBetter());
    }
}
