package dev.msgbench.cli.repeats;

/**
 * A figure that each run measures once (its p99, its achieved rate, its GC time), so that a set of
 * runs has a spread and two sets a verdict ({@link dev.msgbench.core.analysis.RunsVerdict}).
 *
 * @param <R> what one run's figures are read from
 */
public interface RunFigure<R> {

    /** As the tables head it: "p99 ms". */
    String label();

    /** The run's value; NaN where it did not measure this figure. */
    double of(R run);

    /** True for rates: everything else is a cost, better lower. */
    boolean higherIsBetter();

    /** As the tables print it: "-" where not measured. */
    String format(double v);
}
