package dev.msgbench.cli.merge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import dev.msgbench.cli.Io;
import dev.msgbench.core.UserError;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.SummaryTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "merge", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "One result from the workers of one run (e2e or throughput with --workers N).",
                "",
                "Adds the workers' histograms of each kind over the measured part (never their percentiles; a "
                        + "transactional run's commit times from each worker's commit.hlog), sums their counts and "
                        + "rates and the broker's byte counts of their own topics (the ratio taken of the sums), "
                        + "and writes one results folder as a run writes it: result.json (loadGenerator.workers "
                        + "lists each worker with its counts and how well it started on "
                        + "--start-at), the .hgrm files and latency.hlog (the summed seconds, then each worker's own "
                        + "intervals tagged w0/latency, w1/latency ...). report and compare read it as any run.",
                "",
                "Refused, on one line: a folder that is incomplete (no result.json or latency.hlog, or a run that "
                        + "did not complete), settings that differ other than in each worker's share, a worker "
                        + "given twice or missing.",
                ""},
        footer = {"", "Examples:",
                "  merge results/w/worker-0 results/w/worker-1 results/w/worker-2 --output results/w/merged",
                "  merge results/w/worker-* --output results/w/merged && report results/w/merged"})
public final class MergeCommand implements Callable<Integer> {

    private final Io io;

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Each worker's results folder (its --output/worker-I).")
    List<Path> dirs;

    @Option(names = "--output", paramLabel = "DIR", required = true,
            description = "The merged results folder; must be new or empty.")
    Path output;

    public MergeCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        requireEmpty(output);
        List<WorkerFolder> workers = SameRun.check(dirs.stream().map(WorkerFolder::read).toList());
        RunResult result = new MergedRun(workers).write(output);
        io.out().println("merged " + workers.size() + " workers into " + output);
        SummaryTable.print(result, output.toString(), io.out(), false);
        return 0;
    }

    private static void requireEmpty(Path dir) {
        if (!Files.isDirectory(dir)) {
            if (Files.exists(dir)) {
                throw new UserError("merge --output must be a folder, got '" + dir + "', which is a file");
            }
            return;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            if (entries.findAny().isPresent()) {
                throw new UserError("merge --output must be new or empty, got '" + dir + "', which holds files; "
                        + "give another folder");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }
}
