package dev.msgbench.cli.report;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.measure.OutputFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "One self-contained HTML page from results folders.",
                "",
                "Reads one or more results folders, or folders holding some (a workload's run, sweeps), and "
                        + "writes a page that opens offline: latency by percentile with one curve per run, latency and "
                        + "throughput over time in seconds from the end of the warm-up (the faults' clock), seconds "
                        + "without a delivery shaded, the summary table and every setting of every run, durability "
                        + "first. Sweeps are drawn as latency against offered load, with their knees. Runs that lost "
                        + "acknowledged messages to a power loss or a kill, beside runs of the same settings at a "
                        + "stated rate or sweeps, make a price-of-safety table and picture. Each chart is also "
                        + "written as PNG and SVG.",
                "",
                "A folder whose run was killed, or whose files a full disk or a power cut left damaged, is drawn "
                        + "as far as it can be read; each file left out is named on one line.",
                ""},
        // the numbers of ExitCode.OK and USAGE (an annotation takes only constants)
        footer = {"", "Exit codes: 0 written, 2 bad input, or a file damaged or missing (the page is written with "
                + "what could be read).", "", "Examples:",
                "  report results/2026-11-22T00-10-00-nats results/2026-11-22T00-12-00-kafka",
                "  report --service -o e3.html results/e3",
                "  report -o safety.html results/price-of-safety results/sweep-kafka results/sweep-jetstream"})
public final class ReportCommand implements Callable<Integer> {

    private final Io io;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Results folders, sweep folders, or folders holding some.")
    List<Path> dirs;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "The HTML file (default: report.html in the first DIR); charts go to FILE's name + -charts/.")
    Path output;

    @Option(names = "--service", description = "Draw each run's service time (from the actual send) beside its response time.")
    boolean service;

    @Option(names = "--title", paramLabel = "TEXT", defaultValue = "msgbench report", description = "The page's heading (default: ${DEFAULT-VALUE}).")
    String title;

    public ReportCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        Path html = output != null ? output : dirs.get(0).resolve("report.html");
        if (output != null) {
            // a folder or a file in the page's way is said before anything is read or drawn
            OutputFolder.requireFilePlace(spec.commandLine(), "--output", output, "report.html");
        }
        Report.Written written = Report.write(dirs, html, new Report.Options(service, title));
        io.out().println("report: " + written.html());
        io.out().println("charts: " + written.chartFolder() + " (" + written.chartFiles().size() + " files, PNG and SVG)");
        // the page holds what could be read; a damaged input is still the user's to know of
        written.leftOut().forEach(line -> io.err().println("error: " + line));
        return written.leftOut().isEmpty() ? ExitCode.OK.code() : ExitCode.USAGE.code();
    }
}
