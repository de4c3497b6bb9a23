package dev.msgbench.cli.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.nativetool.ToolOutput;
import dev.msgbench.core.system.NativeFigure;
import dev.msgbench.core.system.NativeRun;
import dev.msgbench.core.system.NativeRun.Role;
import dev.msgbench.core.system.NativeRun.Step;

/**
 * The order a native run's commands run in, what a failure or a hung tool does to it, and that no
 * process it started outlives it. The commands are shell one-liners that write what they did.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeRunnerTest {

    private static final Pattern RATE = Pattern.compile("rate ([0-9.]+)");

    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private NativeRunner runner(CpuList cpus, Duration timeout) {
        return new NativeRunner("sys", dir.resolve("native.log"), cpus, timeout,
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /** A step that appends its name to the trace, then runs {@code then}. */
    private Step step(String name, Role role, String then, String logSuffix) {
        return new Step(name, role, List.of("sh", "-c", "echo " + name + " >>\"$0\"; " + then,
                dir.resolve("trace").toString()), logSuffix);
    }

    private static NativeRun.FigureReader rateOf(Step step) {
        return out -> ToolOutput.lastGroup(out.of(step), RATE).map(NativeFigure::of);
    }

    private List<String> trace() throws Exception {
        return Files.exists(dir.resolve("trace")) ? Files.readAllLines(dir.resolve("trace")) : List.of();
    }

    @Test
    void theListenerListensBeforeTheSetupTheMeasuredStepsFollowAndTheCleanupEnds() throws Exception {
        Step listener = Step.listener("listener", List.of("sh", "-c",
                "echo listening; echo $$ >\"$0\"; exec sleep 30", dir.resolve("listener.pid").toString()), "listening");
        Step make = step("make", Role.SETUP, "echo made", ".setup");
        Step bench = step("bench", Role.MEASURED, "echo rate 10; echo rate 42.50", "");
        Step remove = step("remove", Role.CLEANUP, "echo removed", ".setup");

        Optional<NativeFigure> figure = runner(null, Duration.ofSeconds(30))
                .run(new NativeRun(List.of(bench, remove, make, listener), rateOf(bench)));

        assertEquals(Optional.of(NativeFigure.of("42.50")), figure);
        assertEquals(List.of("make", "bench", "remove"), trace());
        assertEquals("made\nremoved\n", Files.readString(dir.resolve("native.log.setup")));
        assertEquals("rate 10\nrate 42.50\n", Files.readString(dir.resolve("native.log")));
        long listenerPid = Long.parseLong(Files.readString(dir.resolve("listener.pid")).trim());
        assertFalse(ProcessHandle.of(listenerPid).map(ProcessHandle::isAlive).orElse(false), "the listener outlived the run");
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aFailedSetupEndsTheRunWithoutAFigureOrACleanupAndSaysItsLastLine() throws Exception {
        Step make = step("make", Role.SETUP, "echo starting; echo 'topic exists' >&2; exit 3", "");
        Step bench = step("bench", Role.MEASURED, "echo rate 1", "");
        Step remove = step("remove", Role.CLEANUP, "true", "");

        Optional<NativeFigure> figure = runner(null, Duration.ofSeconds(30))
                .run(new NativeRun(List.of(make, bench, remove), rateOf(bench)));

        assertEquals(Optional.empty(), figure);
        assertEquals(List.of("make"), trace());
        assertEquals("sys: make: topic exists\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aMeasuredStepsExitStatusIsNotItsFigureButAFailedCleanupIsReported() throws Exception {
        Step bench = step("bench", Role.MEASURED, "echo rate 7; exit 1", "");
        Step remove = step("remove", Role.CLEANUP, "exit 4", "");

        Optional<NativeFigure> figure = runner(null, Duration.ofSeconds(30))
                .run(new NativeRun(List.of(bench, remove), rateOf(bench)));

        assertEquals(Optional.of(NativeFigure.of("7")), figure);
        assertEquals("sys: remove: exit status 4\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aToolThatHangsIsStoppedAtTheTimeoutAndGivesNoFigure() throws Exception {
        Step bench = new Step("bench", Role.MEASURED, List.of("sh", "-c", "echo $$ >\"$0\"; exec sleep 30",
                dir.resolve("bench.pid").toString()), "");

        Optional<NativeFigure> figure = runner(null, Duration.ofMillis(300)).run(new NativeRun(List.of(bench), rateOf(bench)));

        assertEquals(Optional.empty(), figure);
        assertEquals("sys: bench did not end within 300ms; stopped it (--timeout)\n", err.toString(StandardCharsets.UTF_8));
        long pid = Long.parseLong(Files.readString(dir.resolve("bench.pid")).trim());
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the tool outlived its timeout");
    }

    @Test
    void onlyTheMeasuredStepsRunOnTheCpusAskedFor() throws Exception {
        Step make = new Step("make", Role.SETUP, List.of("sh", "-c", "taskset -p $$"), ".setup");
        Step bench = Step.measured("bench", List.of("sh", "-c", "taskset -p $$; echo rate 1"));

        runner(CpuList.parse("0"), Duration.ofSeconds(30)).run(new NativeRun(List.of(make, bench), rateOf(bench)));

        assertTrue(Files.readString(dir.resolve("native.log")).contains("current affinity mask: 1\n"),
                Files.readString(dir.resolve("native.log")));
        String unpinned = Files.readString(dir.resolve("native.log.setup"));
        assertFalse(unpinned.contains("current affinity mask: 1\n") && Runtime.getRuntime().availableProcessors() > 1, unpinned);
    }

    @Test
    void aListenerThatEndsAtOnceEndsTheRunSayingWhy() throws Exception {
        // it may still run when its line is read: the line, not its exit, says it does not listen
        Step listener = Step.listener("subscriber", List.of("sh", "-c", "echo 'Could not connect'; sleep 30"), "psubscribe");
        Step bench = step("bench", Role.MEASURED, "echo rate 1", "");

        Optional<NativeFigure> figure = runner(null, Duration.ofSeconds(30))
                .run(new NativeRun(List.of(listener, bench), rateOf(bench)));

        assertEquals(Optional.empty(), figure);
        assertEquals(List.of(), trace());
        assertEquals("sys: subscriber: Could not connect\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aToolThatCannotStartSaysSoAndGivesNoFigure() throws Exception {
        Step bench = Step.measured("bench", List.of(dir.resolve("no-such-tool").toString()));

        Optional<NativeFigure> figure = runner(null, Duration.ofSeconds(30)).run(new NativeRun(List.of(bench), rateOf(bench)));

        assertEquals(Optional.empty(), figure);
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("sys: bench: cannot start " + dir.resolve("no-such-tool")
                + ": "), err.toString(StandardCharsets.UTF_8));
    }
}
