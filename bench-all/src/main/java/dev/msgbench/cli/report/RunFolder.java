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
import java.util.function.Consumer;
import java.util.stream.Stream;

import dev.msgbench.core.UserError;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.result.DamagedFile;
import dev.msgbench.core.result.IntervalLog;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunningMarker;

/**
 * One results folder as the report and compare read it.
 *
 * @param label  how charts and tables name the run: system, size and rate, and the folder name
 *               where that alone would not tell two runs apart
 * @param result null for a folder the report draws without a result: a run killed before it
 *               wrote one, a result.json a full disk or a power cut damaged; then only its
 *               intervals are drawn
 */
public record RunFolder(Path dir, String label, RunResult result, PercentileCurve latency, PercentileCurve service,
                        IntervalSeries intervals) {

    /** A `run` of a workload keeps its runs a level or two below the folder it is given. */
    private static final int MAX_DEPTH = 3;

    /** The files whose presence makes a folder a run's, whole or not. */
    private static final List<String> RUN_FILES = List.of(ResultFiles.RESULT_JSON, IntervalLog.FILE_NAME,
            RunningMarker.FILE_NAME);

    /**
     * Reads a whole results folder.
     *
     * @throws DamagedFile when one of its files is not as the suite writes it
     */
    public static RunFolder read(Path dir, String label) {
        return read(dir, label, ResultFiles.readResult(dir), DamagedFile::refuse);
    }

    private static RunFolder read(Path dir, String label, RunResult result, Consumer<DamagedFile> damaged) {
        return new RunFolder(dir, label, result, curve(dir, HistogramKind.LATENCY, damaged),
                curve(dir, HistogramKind.SERVICE, damaged), IntervalSeries.read(dir, damaged));
    }

    private static PercentileCurve curve(Path dir, HistogramKind kind, Consumer<DamagedFile> damaged) {
        try {
            return PercentileCurve.readHgrm(dir.resolve(kind.tag() + ".hgrm"));
        } catch (DamagedFile e) {
            damaged.accept(e);
            return new PercentileCurve(List.of(), Double.NaN);
        }
    }

    /** Whether its result.json was read: the summary, settings and percentiles are drawn only for such a run. */
    public boolean whole() {
        return result != null;
    }

    /**
     * The results folders in {@code dirs}: each is one (it holds result.json) or holds several
     * below it (a workload's run). {@code what} names the argument in errors, e.g. "compare BASE".
     *
     * @throws DamagedFile when a file of one is not as the suite writes it
     */
    public static List<RunFolder> find(List<Path> dirs, String what) {
        List<Path> found = new ArrayList<>();
        for (Path dir : dirs) {
            requireFolder(dir, what);
            requireFinished(dir, what);
            List<Path> inside = folders(dir, List.of(ResultFiles.RESULT_JSON));
            if (inside.isEmpty()) {
                throw noResults(dir, what);
            }
            found.addAll(inside);
        }
        List<RunResult> results = found.stream().map(ResultFiles::readResult).toList();
        List<String> labels = labels(found, results);
        List<RunFolder> runs = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            runs.add(read(found.get(i), labels.get(i), results.get(i), DamagedFile::refuse));
        }
        return runs;
    }

    /**
     * The runs in {@code dirs} as far as they can be read, for a report that draws what it can:
     * a run killed before it finished, or whose result.json is damaged or missing, is drawn from
     * its interval log alone; a damaged file is read up to the damage. Each such gap is a line in
     * {@code leftOut}, naming the file and what is wrong. Only a folder a run still writes is
     * refused.
     */
    public static List<RunFolder> findReadable(List<Path> dirs, String what, List<String> leftOut) {
        return findReadable(dirs, what, leftOut, List.of());
    }

    /**
     * As {@link #findReadable(List, String, List)}, passing over the folders below {@code apart}:
     * those of a sweep, which the report reads as one whole. A folder given that holds such a
     * folder and no other run is not refused.
     */
    static List<RunFolder> findReadable(List<Path> dirs, String what, List<String> leftOut, List<Path> apart) {
        List<Path> found = new ArrayList<>();
        for (Path dir : dirs) {
            requireFolder(dir, what);
            List<Path> inside = folders(dir, RUN_FILES).stream().filter(f -> apart.stream().noneMatch(f::startsWith)).toList();
            if (inside.isEmpty() && apart.stream().noneMatch(a -> a.startsWith(dir) || dir.startsWith(a))) {
                throw noResults(dir, what);
            }
            for (Path folder : inside) {
                RunningMarker.read(folder).filter(RunningMarker::stillRunning).ifPresent(marker -> {
                    throw new UserError(what + ": " + marker.describe(folder) + "; wait for it to end");
                });
            }
            found.addAll(inside);
        }
        List<RunResult> results = new ArrayList<>();
        for (Path folder : found) {
            results.add(readableResult(folder, what, leftOut));
        }
        List<String> labels = labels(found, results);
        List<RunFolder> runs = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            runs.add(read(found.get(i), labels.get(i), results.get(i),
                    e -> leftOut.add(e.getMessage() + "; left out of the report: " + e.leftOut())));
        }
        return runs;
    }

    /** The folder's result, or null where there is none to trust, said in {@code leftOut}. */
    private static RunResult readableResult(Path folder, String what, List<String> leftOut) {
        String drawn = "; left out of the report: " + ResultFiles.RESULT_LEFT_OUT
                + (Files.isRegularFile(folder.resolve(IntervalLog.FILE_NAME))
                        ? " (its intervals are drawn from " + IntervalLog.FILE_NAME + ")"
                        : " (and it has no " + IntervalLog.FILE_NAME + " to draw)");
        Optional<RunningMarker> killed = RunningMarker.read(folder);
        if (killed.isPresent()) {
            leftOut.add(what + ": " + killed.get().describe(folder) + drawn);
            return null;
        }
        if (!Files.isRegularFile(folder.resolve(ResultFiles.RESULT_JSON))) {
            leftOut.add(what + ": " + folder + " has no " + ResultFiles.RESULT_JSON + " (its run could not write it?)" + drawn);
            return null;
        }
        try {
            return ResultFiles.readResult(folder);
        } catch (DamagedFile e) {
            leftOut.add(e.getMessage() + drawn);
            return null;
        }
    }

    private static void requireFolder(Path dir, String what) {
        if (!Files.isDirectory(dir)) {
            throw new UserError(what + " must be a results folder, got '" + dir + "', which is not a folder");
        }
    }

    private static UserError noResults(Path dir, String what) {
        return new UserError(what + " must be a results folder (with " + ResultFiles.RESULT_JSON
                + ") or hold some, got '" + dir + "', which has none; run e2e first");
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

    /** {@code dir} if it holds one of {@code names}, else the folders below it that do. */
    private static List<Path> folders(Path dir, List<String> names) {
        if (names.stream().anyMatch(name -> Files.isRegularFile(dir.resolve(name)))) {
            return List.of(dir);
        }
        try (Stream<Path> files = Files.walk(dir, MAX_DEPTH)) {
            return files.filter(p -> names.contains(p.getFileName().toString()) && Files.isRegularFile(p))
                    .map(Path::getParent).distinct().sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static List<String> labels(List<Path> dirs, List<RunResult> results) {
        List<String> shortLabels = new ArrayList<>();
        Map<String, Integer> uses = new HashMap<>();
        for (int i = 0; i < dirs.size(); i++) {
            RunResult result = results.get(i);
            String label = result == null ? dirs.get(i).getFileName() + " (incomplete)" : shortLabel(result);
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
        Object latency = result == null || result.settings() == null ? null : result.settings().get("latency");
        return latency instanceof String text && text.startsWith("round trip");
    }
}
