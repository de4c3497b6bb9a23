package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Results files as a killed run, a full disk or a power cut leave them, read by report, compare
 * and merge: each says on one line which file is damaged and how, exit code 2, no stack trace;
 * report still draws what it can read. The folders come from loopback runs in this JVM, copied
 * and damaged by each test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DamagedResultFilesTest {

    private static final String NL = System.lineSeparator();
    private static final String CUT_SHORT = " (a run killed, a full disk or a power cut while writing it?)";
    private static final String DRAWN_ALONE = "; left out of the report: its summary and settings (its intervals are "
            + "drawn from latency.hlog)";

    @TempDir
    static Path runs;

    @TempDir
    Path dir;

    private static Path whole;
    private static Path worker0;
    private static Path worker1;

    @BeforeAll
    static void runOnceAndAsTwoWorkers() {
        whole = runs.resolve("whole");
        CliRun run = CliRun.of("e2e", "--system", "loopback", "--rate", "500", "--warmup", "1s", "--duration", "2s",
                "--quiet", "--output", whole.toString());
        assertEquals(0, run.exitCode, run.toString());
        Path workers = runs.resolve("workers");
        for (int i = 0; i < 2; i++) {
            CliRun w = CliRun.of("e2e", "--system", "loopback", "--workers", "2", "--worker-index", String.valueOf(i),
                    "--producers", "2", "--consumers", "2", "--rate", "400", "--warmup", "1s", "--duration", "1s",
                    "--quiet", "--output", workers.toString());
            assertEquals(0, w.exitCode, w.toString());
        }
        worker0 = workers.resolve("worker-0");
        worker1 = workers.resolve("worker-1");
    }

    @Test
    void reportOnATruncatedResultJsonDrawsTheIntervalsAndNamesTheFile() throws Exception {
        Path json = truncatedResultOf(whole);
        Path run = json.getParent();

        CliRun report = CliRun.of("report", run.toString());

        assertOneError(report, json + ": truncated at byte 1,234" + CUT_SHORT + DRAWN_ALONE);
        assertDrawsItsIntervals(report, run);
    }

    @Test
    void reportOnAResultJsonWithAFieldOfTheWrongTypeNamesTheFieldAndBothTypes() throws Exception {
        Path run = copy(whole, "mistyped");
        Path json = mistype(run);

        CliRun report = CliRun.of("report", run.toString());

        assertOneError(report, json + ": field workload.durationSeconds: expected a number, got a string (\"two\")"
                + DRAWN_ALONE);
        assertDrawsItsIntervals(report, run);
    }

    @Test
    void reportOnALatencyLogCutMidLineDrawsItsWholeLinesAndSaysWhatItLeftOut() throws Exception {
        Path run = copy(whole, "cut-log");
        Path hlog = run.resolve("latency.hlog");
        String text = Files.readString(hlog, StandardCharsets.US_ASCII);
        // cut in the middle of the last latency interval: the intervals of the seconds before it stay
        int cut = text.lastIndexOf("Tag=latency,") + 40;
        truncate(hlog, cut);
        double lastWholeEnd = lastLatencyEndBefore(text, text.lastIndexOf("Tag=latency,"));

        CliRun report = CliRun.of("report", run.toString());

        String said = hlog + ": ends mid-line at byte " + String.format("%,d", cut) + CUT_SHORT
                + "; left out of the report: what it holds after ";
        assertEquals(2, report.exitCode, report.toString());
        assertTrue(report.err.startsWith("error: " + said) && report.err.endsWith(" s" + NL), report.err);
        // the log's times are whole milliseconds, read back through doubles: a millisecond either way
        double after = Double.parseDouble(report.err.substring(("error: " + said).length(), report.err.length()
                - (" s" + NL).length()));
        assertEquals(lastWholeEnd, after, 0.0015, report.err);
        assertDrawsItsIntervals(report, run);
        assertTrue(Files.readString(run.resolve("report.html")).contains("id=\"latency-by-percentile\""),
                "the result and its percentiles are whole");
    }

    @Test
    void reportOnIntervalCountsCutMidLineSaysWhereTheyStop() throws Exception {
        Path run = copy(whole, "cut-counts");
        Path csv = run.resolve("intervals.csv");
        java.util.List<String> rows = Files.readAllLines(csv).stream().filter(l -> !l.startsWith("#")).toList();
        String endOfTheRowBefore = rows.get(rows.size() - 2).split(",")[1];
        truncate(csv, Files.size(csv) - 5);

        CliRun report = CliRun.of("report", run.toString());

        assertOneError(report, csv + ": ends mid-line at byte " + String.format("%,d", Files.size(csv)) + CUT_SHORT
                + "; left out of the report: its counts after " + endOfTheRowBefore + " s");
    }

    @Test
    void compareOnATruncatedOrMistypedResultJsonNamesTheFileOnEitherSide() throws Exception {
        Path truncated = truncatedResultOf(whole);
        Path mistyped = mistype(copy(whole, "mistyped"));

        assertOneError(CliRun.of("compare", truncated.getParent().toString(), whole.toString()),
                truncated + ": truncated at byte 1,234" + CUT_SHORT);
        assertOneError(CliRun.of("compare", whole.toString(), mistyped.getParent().toString()),
                mistyped + ": field workload.durationSeconds: expected a number, got a string (\"two\")");
    }

    @Test
    void mergeOnATruncatedOrMistypedResultJsonOrACutLogNamesTheFile() throws Exception {
        Path truncated = truncatedResultOf(worker0);
        Path mistyped = mistype(copy(worker0, "mistyped"));
        Path hlog = truncate(copy(worker0, "cut-log").resolve("latency.hlog"), 700);

        assertOneError(merge(truncated.getParent()), truncated + ": truncated at byte 1,234" + CUT_SHORT);
        assertOneError(merge(mistyped.getParent()), mistyped + ": field workload.durationSeconds: expected a number, "
                + "got a string (\"one\")");
        assertOneError(merge(hlog.getParent()), hlog + ": ends mid-line at byte 700" + CUT_SHORT);
        assertFalse(Files.exists(dir.resolve("merged")), "nothing merged from a damaged worker");
    }

    private CliRun merge(Path damagedWorker0) {
        return CliRun.of("merge", damagedWorker0.toString(), worker1.toString(), "--output", dir.resolve("merged").toString());
    }

    /** One line on stderr, the exit code of bad input, and no stack trace. */
    private static void assertOneError(CliRun run, String message) {
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + message + NL, run.err);
    }

    private static void assertDrawsItsIntervals(CliRun report, Path run) throws IOException {
        assertTrue(report.out.startsWith("report: " + run.resolve("report.html") + NL), report.out);
        String page = Files.readString(run.resolve("report.html"));
        assertTrue(page.contains("<img class=\"chart\" id=\"latency-over-time-01\""), "latency over time drawn");
        assertTrue(page.contains("<img class=\"chart\" id=\"throughput-over-time-01\""), "throughput over time drawn");
        assertTrue(page.contains("class=\"warn leftout\">Left out: "), "the page says what it left out");
    }

    private Path copy(Path from, String name) throws IOException {
        Path to = dir.resolve(name);
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
        return to;
    }

    /** A copy of {@code from} whose result.json a killed run cut at byte 1,234; gives that file. */
    private Path truncatedResultOf(Path from) throws IOException {
        return truncate(copy(from, "truncated").resolve("result.json"), 1_234);
    }

    private static Path truncate(Path file, long bytes) throws IOException {
        byte[] all = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(all, (int) bytes));
        return file;
    }

    /** workload.durationSeconds written as a word, as a hand edit might: "two" for 2.0. */
    private static Path mistype(Path run) throws IOException {
        Path json = run.resolve("result.json");
        String text = Files.readString(json);
        String edited = text.replaceFirst("\"durationSeconds\" : 2\\.0", "\"durationSeconds\" : \"two\"")
                .replaceFirst("\"durationSeconds\" : 1\\.0", "\"durationSeconds\" : \"one\"");
        assertFalse(edited.equals(text), "a duration to mistype");
        Files.writeString(json, edited);
        return json;
    }

    /** Where the last latency interval before {@code before} ends, in seconds from the log's start. */
    private static double lastLatencyEndBefore(String log, int before) {
        int line = log.lastIndexOf("Tag=latency,", before - 1);
        String[] fields = log.substring(line, log.indexOf('\n', line)).split(",");
        return Double.parseDouble(fields[1]) + Double.parseDouble(fields[2]);
    }
}
