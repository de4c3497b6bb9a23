package dev.msgbench.cli.workload;

import java.util.Map;

import dev.msgbench.cli.repeats.RunFigure;

/**
 * A figure of a repeated cell's spread and verdicts: a column of the summary ({@link Columns}),
 * read from each run's own values, its own percentiles among them.
 */
public enum CellFigure implements RunFigure<Map<String, Double>> {
    P50("p50"),
    P99("p99"),
    P999("p99.9"),
    MAX("max"),
    ACHIEVED_RATE("achieved-rate"),
    RECEIVED_RATE("received-rate");

    private final String column;

    CellFigure(String column) {
        this.column = column;
    }

    @Override
    public String label() {
        return Columns.title(column);
    }

    @Override
    public double of(Map<String, Double> run) {
        return run.getOrDefault(column, Double.NaN);
    }

    @Override
    public boolean higherIsBetter() {
        return Columns.RATES.contains(column);
    }

    @Override
    public String format(double v) {
        return Columns.format(column, Double.isNaN(v) ? null : v);
    }
}
