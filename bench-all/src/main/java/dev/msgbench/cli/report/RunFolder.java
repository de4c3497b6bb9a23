package dev.msgbench.cli.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import dev.msgbench.core.UserError;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunningMarker;

/**
 * One results folder as the report and compare read it.
 *
 * @param label how charts and tables name the run: system, size and rate, and the folder name
 *              where that alone would not tell two runs apart
 */
public record RunFolder(Path dir, String label, RunResult result, PercentileCurve latency, PercentileCurve service,
                        IntervalSeries intervals) {

    /** A `run` of a workload keeps its runs a level or two below the folder it is given. */
    private static final int MAX_DEPTH = 3;

    public static RunFolder read(Path dir, String label) {
        RunResult result = ResultFiles.readResult(dir);
        return new RunFolder(dir, label, result,
                PercentileCurve.readHgrm(dir.resolve(HistogramKind.LATENCY.tag() + ".hgrm")),
                PercentileCurve.readHgrm(dir.resolve(HistogramKind.SERVICE.tag() + ".hgrm")),
                IntervalSeries.read(dir));
    }

    /**
     * The results folders in {@code dirs}: each is one (it holds result.json) or holds several
     * below it (a workload's run). {@code what} names the argument in errors, e.g. "report DIR".
     */
    public static List<RunFolder> find(List<Path> dirs, String what) {
        List<Path> found = new ArrayList<>();
        for (Path dir : dirs) {
            if (!Files.isDirectory(dir)) {
                throw new UserError(what + " must be a results folder, got '" + dir + "', which is not a folder");
            }
            requireFinished(dir, what);
            List<Path> inside = resultFolders(dir);
            if (inside.isEmpty()) {
                throw new UserError(what + " must be a results folder (with " + ResultFiles.RESULT_JSON
                        + ") or hold some, got '" + dir + "', which has none; run e2e first");
            }
            found.addAll(inside);
        }
        List<String> labels = labels(found);
        List<RunFolder> runs = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            runs.add(read(found.get(i), labels.get(i)));
        }
        return runs;
    }

    /**
     * A folder left by a run killed before it finished (or still being written) is refused,
     * rather than read as a result or reported as "no result.json": the user is told what happened.
     */
    private static void requireFinished(Path dir, String what) {
        Optional<Path> marked = RunningMarker.findBelow(dir, MAX_DEPTH);
        if (marked.isPresent()) {
            RunningMarker marker = RunningMarker.read(marked.get()).orElseThrow();
            String next = marker.stillRunning() ? "; wait for it to end"
                    : "; its " + IntervalLog.FILE_NAME + " holds the intervals measured until then";
            throw new UserError(what + ": " + marker.describe(marked.get()) + next);
        }
    }

    private static List<Path> resultFolders(Path dir) {
        if (Files.isRegularFile(dir.resolve(ResultFiles.RESULT_JSON))) {
            return List.of(dir);
        }
        try (Stream<Path> files = Files.walk(dir, MAX_DEPTH)) {
            return files.filter(p -> p.getFileName().toString().equals(ResultFiles.RESULT_JSON))
                    .map(Path::getParent).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static List<String> labels(List<Path> dirs) {
        List<String> shortLabels = new ArrayList<>();
        Map<String, Integer> uses = new HashMap<>();
        for (Path dir : dirs) {
            String label = shortLabel(ResultFiles.readResult(dir));
            shortLabels.add(label);
            uses.merge(label, 1, Integer::sum);
        }
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < dirs.size(); i++) {
            String label = shortLabels.get(i);
            labels.add(uses.get(label) > 1 ? label + " (" + dirs.get(i).getFileName() + ")" : label);
        }
        return labels;
    }

    private static String shortLabel(RunResult r) {
        return r.workload() == null ? r.system() : r.system() + " " + setting(r);
    }

    /** The load of a run without its system: "1KiB @3,000/s", "1KiB @20,000/s x25", "100B unpaced". */
    static String setting(RunResult r) {
        if (r.workload() == null) {
            return "";
        }
        String size = Sizes.human(r.workload().messageSizeBytes());
        if (r.workload().rateMsgsPerSec() <= 0) {
            return size + " unpaced";
        }
        String conns = r.workload().producers() > 1 ? " x" + r.workload().producers() : "";
        return String.format(Locale.US, "%s @%,.0f/s%s", size, r.workload().rateMsgsPerSec(), conns);
    }

    /** Sizes as people write them in the experiments: 256B, 1KiB, 5KiB, 1MiB. */
    static final class Sizes {
        private Sizes() {
        }

        static String human(long bytes) {
            if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
                return bytes / (1 << 20) + "MiB";
            }
            if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
                return bytes / (1 << 10) + "KiB";
            }
            return bytes + "B";
        }
    }

    /** Whether its latency is a round trip (--pattern echo, NATS request-reply), which titles must say. */
    public boolean roundTrip() {
        Object latency = result.settings() == null ? null : result.settings().get("latency");
        return latency instanceof String text && text.startsWith("round trip");
    }
}
