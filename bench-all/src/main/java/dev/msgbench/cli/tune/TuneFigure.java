package dev.msgbench.cli.tune;

import java.util.Locale;
import java.util.function.ToDoubleFunction;

import dev.msgbench.cli.repeats.RunFigure;

/**
 * A figure of the tuning table that each run measures once, so that a flag set's runs give its
 * spread and two sets' runs a verdict ({@link dev.msgbench.core.analysis.RunsVerdict}).
 */
public enum TuneFigure implements RunFigure<TuneRow> {
    P50("p50 ms", TuneRow::p50Ms, 3, false),
    P99("p99 ms", TuneRow::p99Ms, 3, false),
    P999("p99.9 ms", TuneRow::p999Ms, 3, false),
    MAX("max ms", TuneRow::maxMs, 3, false),
    RATE("rate/s", TuneRow::achievedRate, 0, true),
    GC_COUNT("gc n", r -> r.gcPauses() < 0 ? Double.NaN : r.gcPauses(), 0, false),
    GC_TOTAL("gc ms", TuneRow::gcPauseTotalMs, 0, false),
    GC_MAX("gc max ms", TuneRow::gcPauseMaxMs, 0, false),
    ALLOCATION("alloc MiB/s", TuneRow::allocMiBPerSec, 1, false),
    HICCUP_P99("hiccup p99 ms", TuneRow::hiccupP99Ms, 3, false),
    HICCUP_MAX("hiccup max ms", TuneRow::hiccupMaxMs, 3, false);

    private final String label;
    private final ToDoubleFunction<TuneRow> value;
    private final int decimals;
    private final boolean higherIsBetter;

    TuneFigure(String label, ToDoubleFunction<TuneRow> value, int decimals, boolean higherIsBetter) {
        this.label = label;
        this.value = value;
        this.decimals = decimals;
        this.higherIsBetter = higherIsBetter;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public double of(TuneRow run) {
        return value.applyAsDouble(run);
    }

    @Override
    public boolean higherIsBetter() {
        return higherIsBetter;
    }

    @Override
    public String format(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.US, "%,." + decimals + "f", v);
    }
}
