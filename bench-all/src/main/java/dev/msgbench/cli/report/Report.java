package dev.msgbench.cli.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.msgbench.cli.tune.TuneFigure;

/**
 * The report of one or more results folders: one self-contained HTML page (charts embedded as
 * PNG, no network fetches) and each chart as PNG and SVG in a folder beside it.
 *
 * <p>{@code run} of a workload calls {@link #write(List, Path)} when it ends.
 */
public final class Report {

    private static final String SAFETY_NOTE = "<p class=\"note\">A row is a system at one durability setting: the runs"
            + " whose result.json has the same system and <code>durability</code>. Rate and percentiles: its runs without a"
            + " fault on plain disks, at the rate most of them ran at (several runs: their histograms added). On the fault"
            + " layer: the same on forgetful disks, which the losses are measured on (its cost, not the system's). Knee:"
            + " the highest rate that passed its sweep's repeats (a sweep folder given to report). Highest rate: a"
            + " throughput run's, the lower of what was acknowledged and what was delivered per second, with no latency"
            + " objective. Acknowledged lost: messages the system acknowledged and no consumer received, in its runs with"
            + " that fault, added over them (a power loss of the only node of a one-node broker is one of every node);"
            + " hover over a row for every setting.</p>\n";

    private static final String LOAD_NOTE = "<p class=\"note\">Each run of a sweep at the rate it was asked for"
            + " (warm-up runs left out); past the knee a run misses its objective or its rate, and its latency is what the"
            + " system does when offered more than it sustains.</p>\n";

    /**
     * @param service draw each run's service time (from the actual send) beside its response time
     * @param title   the page's heading
     */
    public record Options(boolean service, String title) {
        public static final Options DEFAULT = new Options(false, "msgbench report");
    }

    /**
     * What was written.
     *
     * @param leftOut what could not be read and was left out, a line each naming the file: a
     *                killed run's missing result, a file cut short; empty when every file was whole
     */
    public record Written(Path html, Path chartFolder, List<Path> chartFiles, List<String> leftOut) {
    }

    private Report() {
    }

    /** Writes the report of {@code resultDirs} (results folders or folders holding some) to {@code htmlFile}. */
    public static Written write(List<Path> resultDirs, Path htmlFile) {
        return write(resultDirs, htmlFile, Options.DEFAULT);
    }

    public static Written write(List<Path> resultDirs, Path htmlFile, Options options) {
        List<String> leftOut = new ArrayList<>();
        List<Path> sweepFolders = SweepFolder.foldersBelow(resultDirs);
        List<SweepFolder> sweeps = SweepFolder.read(sweepFolders, leftOut);
        List<Path> tuneFolders = TuneFolder.foldersBelow(resultDirs);
        List<TuneFolder> tunes = TuneFolder.read(tuneFolders, leftOut);
        // a sweep's steps and a tune's children are drawn as their whole, not run by run
        List<Path> apart = new ArrayList<>(sweepFolders);
        apart.addAll(tuneFolders);
        List<RunFolder> runs = RunFolder.findReadable(resultDirs, "report DIR", leftOut, apart);
        List<RunFolder> whole = runs.stream().filter(RunFolder::whole).toList();
        Path html = htmlFile.toAbsolutePath();
        Path folder = chartFolder(html);
        List<HtmlPage.Figure> percentile = new ArrayList<>();
        List<HtmlPage.RunFigures> perRun = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        List<HtmlPage.Section> sections = sections(whole, sweeps, folder, files);
        for (int i = 0; i < tunes.size(); i++) {
            List<HtmlPage.Figure> figures = new ArrayList<>();
            // a tune --jmh-only ran no e2e cell: its JMH table is all there is to show
            if (!tunes.get(i).sets().isEmpty()) {
                for (Charts.Chart chart : RepeatsCharts.charts(RepeatsCharts.What.TUNE, tunes.get(i).sets(),
                        List.of(TuneFigure.values()), i)) {
                    figures.add(figure(chart, folder, files));
                }
            }
            sections.add(new HtmlPage.Section("tune-" + (i + 1), "JVM flag sets, run by run ("
                    + tunes.get(i).dir().getFileName() + ")", figures, tunes.get(i).html()));
        }
        List<WorkloadRepeatsFolder> repeated = WorkloadRepeatsFolder.below(resultDirs, leftOut);
        for (int i = 0; i < repeated.size(); i++) {
            WorkloadRepeatsFolder workload = repeated.get(i);
            List<HtmlPage.Figure> figures = new ArrayList<>();
            for (Charts.Chart chart : RepeatsCharts.charts(WorkloadRepeatsFolder.WHAT, workload.cells(),
                    WorkloadRepeatsFolder.FIGURES, i)) {
                figures.add(figure(chart, folder, files));
            }
            sections.add(new HtmlPage.Section("cells-" + (i + 1), "Workload cells, run by run (" + workload.workload()
                    + ", " + workload.dir().getFileName() + ")", figures, workload.html()));
        }
        if (!runs.isEmpty()) {
            for (Charts.Chart chart : percentileCharts(whole, options.service())) {
                percentile.add(figure(chart, folder, files));
            }
        }
        for (int i = 0; i < runs.size(); i++) {
            RunFolder run = runs.get(i);
            perRun.add(new HtmlPage.RunFigures(run, List.of(
                    figure(OverTimeCharts.latencyOverTime(run, i), folder, files),
                    figure(OverTimeCharts.throughputOverTime(run, i), folder, files))));
        }
        String page = HtmlPage.render(options.title(), sections, whole, percentile, perRun, leftOut,
                folder.getFileName().toString());
        writeAtomically(html, page);
        return new Written(html, folder, List.copyOf(files), List.copyOf(leftOut));
    }

    /**
     * The views of all runs together: the price of safety where runs measured an acknowledged loss
     * beside others that measured latency or a knee, and latency against offered load where there
     * are sweeps.
     */
    private static List<HtmlPage.Section> sections(List<RunFolder> runs, List<SweepFolder> sweeps, Path folder,
                                                   List<Path> files) {
        List<LoadCurve> curves = sweeps.stream().flatMap(s -> LoadCurve.of(s).stream()).toList();
        List<SafetyCell> safety = SafetyCells.of(runs, curves);
        List<DurabilityCell> cells = new ArrayList<>();
        safety.forEach(c -> cells.add(c.cell()));
        curves.forEach(c -> cells.add(c.cell()));
        Map<DurabilityCell, String> labels = DurabilityCell.labels(cells);
        List<HtmlPage.Section> sections = new ArrayList<>();
        if (!safety.isEmpty()) {
            sections.add(new HtmlPage.Section("price-of-safety-view", "The price of safety",
                    List.of(figure(SafetyChart.chart(safety, labels), folder, files)),
                    SafetyTable.html(safety, labels) + SAFETY_NOTE));
        }
        if (!curves.isEmpty()) {
            sections.add(new HtmlPage.Section("offered-load", "Latency against offered load",
                    List.of(figure(LoadCharts.latencyAgainstLoad(curves, labels), folder, files)),
                    SweepTable.html(curves, LoadCharts.names(curves, labels)) + LOAD_NOTE));
        }
        return sections;
    }

    /**
     * Several systems measured under the same settings (E3: four systems, five settings) are read
     * as the published charts are: one chart per setting, the systems overlaid, each in its own
     * colour on every chart. Anything else is one chart with every run.
     */
    static List<Charts.Chart> percentileCharts(List<RunFolder> runs, boolean service) {
        Map<String, List<RunFolder>> bySetting = new LinkedHashMap<>();
        List<String> systems = new ArrayList<>();
        for (RunFolder run : runs) {
            bySetting.computeIfAbsent(RunFolder.setting(run.result()), k -> new ArrayList<>()).add(run);
            if (!systems.contains(run.result().system())) {
                systems.add(run.result().system());
            }
        }
        boolean compareSystems = bySetting.size() > 1 && systems.size() > 1
                && bySetting.values().stream().anyMatch(group -> group.stream().map(r -> r.result().system()).distinct().count() > 1);
        if (!compareSystems) {
            return List.of(Charts.percentiles(runs, service));
        }
        List<Charts.Chart> charts = new ArrayList<>();
        int n = 1;
        for (Map.Entry<String, List<RunFolder>> group : bySetting.entrySet()) {
            charts.add(Charts.percentiles(group.getValue(), service, group.getKey(),
                    String.format(java.util.Locale.US, "latency-by-percentile-%02d", n++), systems));
        }
        return charts;
    }

    /** report.html -> report-charts/ beside it. */
    static Path chartFolder(Path html) {
        String name = html.getFileName().toString();
        String stem = name.endsWith(".html") ? name.substring(0, name.length() - ".html".length()) : name;
        return html.resolveSibling(stem + "-charts");
    }

    /** A chart without data (e.g. a throughput run has no latency) is shown as a note, not drawn. */
    private static HtmlPage.Figure figure(Charts.Chart chart, Path folder, List<Path> files) {
        if (!Charts.hasData(chart)) {
            return new HtmlPage.Figure(chart.title(), chart.fileStem(), null);
        }
        byte[] png = ChartFiles.write(chart, folder);
        files.add(folder.resolve(chart.fileStem() + ".png"));
        files.add(folder.resolve(chart.fileStem() + ".svg"));
        return new HtmlPage.Figure(chart.title(), chart.fileStem(), png);
    }

    private static void writeAtomically(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
