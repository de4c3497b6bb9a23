package dev.msgbench.cli.workload;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import dev.msgbench.cli.cell.ParsedCell;
import dev.msgbench.cli.measure.SharingOptions;
import dev.msgbench.core.time.RateSchedule;
import dev.msgbench.core.units.Durations;

/**
 * What --dry-run prints: the workload, its checked cells with their command lines (and a memory
 * line where a cell's sharing needs one), the baseline, and how long the e2e cells will send.
 */
final class DryRunPlan {

    private final Path file;
    private final double scale;
    private final Catalogs catalogs;

    /** @param file as given, for the line that counts the cells */
    DryRunPlan(Path file, double scale, Catalogs catalogs) {
        this.file = file;
        this.scale = scale;
        this.catalogs = catalogs;
    }

    /**
     * @param cells  the cells, scaled; {@code parsed} and {@code args} hold each one's checked
     *               command and its flags as printed, in the same order
     * @param runs   each cell's repetitions, back to back
     */
    void print(PrintStream out, WorkloadFile workload, List<Cell> cells, List<List<String>> args, List<ParsedCell> parsed,
               int runs) {
        out.println(workload.name() + (workload.source() == null ? "" : " (" + workload.source() + ")"));
        out.printf(Locale.US, "%s: %d cell%s%s%s, checked; nothing run (--dry-run)%n", file, cells.size(),
                cells.size() == 1 ? "" : "s", runs == 1 ? "" : " x " + runs + " repetitions",
                (workload.repeats() == 1 ? "" : " x " + workload.repeats() + " runs, interleaved")
                        + (scale == 1 ? "" : ", --scale " + Scaling.describe(scale)));
        if (workload.baseline() != null) {
            cells.stream().filter(c -> c.label().equalsIgnoreCase(workload.baseline().label())).findFirst().ifPresent(c ->
                    out.printf(Locale.US, "baseline: cell %d (%s), every other cell judged against it%n", c.index(),
                            c.label()));
        }
        Duration sending = Duration.ZERO;
        boolean paced = false;
        boolean unpaced = false;
        boolean autoWarmup = false;
        for (int i = 0; i < cells.size(); i++) {
            Cell cell = cells.get(i);
            out.printf(Locale.US, "%n%3d  %s%n     %s%n", cell.index(), cell.label(), String.join(" ", args.get(i)));
            String memory = SharingOptions.memoryLine(parsed.get(i), Runtime.getRuntime().maxMemory());
            if (memory != null) {
                out.println("     " + memory);
            }
            if (cell.command().equals("e2e")) {
                String schedule = setting(cell, "rate-schedule");
                Duration measured = schedule.isEmpty() ? time(cell, "duration")
                        : Duration.ofNanos(RateSchedule.parse(schedule).durationNanos());
                sending = sending.plus(time(cell, "warmup").plus(measured).multipliedBy((long) runs
                        * workload.repeats()));
                autoWarmup |= setting(cell, "warmup").startsWith(WarmupSpec.AUTO);
                paced = true;
            } else {
                unpaced = true;
            }
        }
        if (paced) {
            out.printf(Locale.US, "%nsending time: %s%s%s, plus a broker start per run%n", autoWarmup ? "at most " : "", human(sending),
                    unpaced ? " for the e2e cells (throughput cells take as long as the system needs)" : "");
        } else {
            out.printf(Locale.US, "%nsending time: as long as the systems need (throughput), plus a broker start per run%n");
        }
    }

    /** As given for the cell, else the command's default; empty if neither. */
    private String setting(Cell cell, String key) {
        Setting setting = cell.setting(key);
        String text = setting != null ? ((FlagValue.Scalar) setting.value()).text()
                : catalogs.of(cell.command()).defaultValue(key);
        return text == null ? "" : text;
    }

    /** An automatic warm-up counts as its bound: the plan says how long cells may take. */
    private Duration time(Cell cell, String key) {
        String text = setting(cell, key);
        return text.isEmpty() ? Duration.ZERO : key.equals("warmup") ? WarmupSpec.parse(text).length() : Durations.parse(text);
    }

    private static String human(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format(Locale.US, "%dh %02dm", s / 3600, s / 60 % 60)
                : s >= 60 ? String.format(Locale.US, "%dm %02ds", s / 60, s % 60) : s + "s";
    }
}
