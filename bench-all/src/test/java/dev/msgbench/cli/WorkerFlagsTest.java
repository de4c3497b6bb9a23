package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.msgbench.cli.measure.E2eCommand;
import dev.msgbench.cli.workers.WorkerOptions;
import dev.msgbench.cli.workers.WorkerPlan;
import dev.msgbench.core.run.Pacing;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** --workers, --worker-index and --start-at: how a worker finds its part, and the one-line refusals. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WorkerFlagsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--worker-index 1|--worker-index needs --workers, the number of workers it is one of",
            "--workers 4|--workers 4 needs this worker's --worker-index (or JOB_COMPLETION_INDEX, as a Kubernetes Indexed Job sets it)",
            "--workers 4 --worker-index 4|--worker-index must be from 0 to 3 (--workers 4), got 4",
            "--workers 4 --worker-index -1|--worker-index must be from 0 to 3 (--workers 4), got -1",
            "--workers 0 --worker-index 0|--workers must be at least 1, got 0",
            "--workers 4 --worker-index 0 --producers 3 --consumers 4|--producers 3 cannot be split over --workers 4: each worker needs a producer stream; give at least 4",
            "--workers 4 --worker-index 0 --producers 4 --consumers 2|--consumers 2 cannot be split over --workers 4: each worker consumes what it produces, with a consumer of its own; give at least 4",
            "--workers 2 --worker-index 0 --producers 2 --consumers 2 --warmup auto|--warmup auto cannot be used with --workers: each worker would end its warm-up at its own time; give a fixed --warmup",
            "--start-at yesterday|--start-at must be an instant such as 2026-11-24T10:00:00Z (UTC, or with an offset written as Z) or a time from now such as +30s, got 'yesterday'",
            "--start-at +soon|--start-at must be an instant such as 2026-11-24T10:00:00Z or a time from now such as +30s, got '+soon'",
            "--start-at 2020-01-01T00:00:00Z|--start-at 2020-01-01T00:00:00Z is ",
    })
    void aBadWorkerFlagIsOneLineNamingItExitingWith2(String flags, String message) {
        String[] args = ("e2e --system loopback " + flags).split(" ");
        CliRun run = CliRun.of(args);
        assertEquals(2, run.exitCode, run.toString());
        String firstLine = run.err.lines().findFirst().orElseThrow();
        assertEquals(true, firstLine.startsWith("error: " + message), run.err);
        assertEquals(1, run.err.lines().count(), run.err);
    }

    @Test
    void theIndexComesFromJobCompletionIndexWhenTheFlagIsAbsentAndMustBeAWholeNumber() {
        WorkerOptions options = workerOptions("--workers", "4");
        assertEquals(2, options.index(4, null, "2"));
        assertEquals(1, options.index(4, 1, "2"), "the flag wins");
        ParameterException notANumber = assertThrows(ParameterException.class, () -> options.index(4, null, "two"));
        assertEquals("JOB_COMPLETION_INDEX must be a whole number (this worker's index, 0 to 3), got 'two'",
                notANumber.getMessage());
        ParameterException outside = assertThrows(ParameterException.class, () -> options.index(4, null, "9"));
        assertEquals("JOB_COMPLETION_INDEX must be from 0 to 3 (--workers 4), got 9", outside.getMessage());
    }

    @Test
    void producersConsumersAndRateAreDealtOutSoThatTheWorkersTogetherRunTheOneSchedule() {
        Pacing total = new Pacing.FixedRate(5000, dev.msgbench.core.time.Arrival.UNIFORM, java.time.Duration.ZERO,
                java.time.Duration.ofSeconds(10));
        int producers = 0;
        int consumers = 0;
        double rate = 0;
        for (int index = 0; index < 3; index++) {
            WorkerPlan plan = WorkerPlan.of(index, 3, 5, 4, total, null);
            assertEquals(producers, plan.firstStream(), "streams follow on from the previous worker's");
            producers += plan.producers();
            consumers += plan.consumers();
            rate += ((Pacing.FixedRate) plan.share()).rateMsgsPerSec();
        }
        assertEquals(5, producers);
        assertEquals(4, consumers);
        assertEquals(5000, rate, 1e-9);
        assertEquals(2, WorkerPlan.of(0, 3, 5, 4, total, null).producers(), "the first workers take one more");
        Pacing.Unpaced messages = new Pacing.Unpaced(1003, 10, java.time.Duration.ofMinutes(1), false);
        long sent = 0;
        for (int index = 0; index < 3; index++) {
            sent += ((Pacing.Unpaced) WorkerPlan.of(index, 3, 5, 3, messages, null).share()).messages();
        }
        assertEquals(1003, sent);
    }

    @Test
    void aStartTimeFromNowIsThatFarAheadAndOneJustPastIsTolerated() {
        WorkerOptions options = workerOptions();
        Instant now = Instant.parse("2026-11-24T10:00:00Z");
        assertEquals(Instant.parse("2026-11-24T10:00:30Z"), options.startInstant("+30s", now));
        assertEquals(Instant.parse("2026-11-24T09:59:59.500Z"), options.startInstant("2026-11-24T09:59:59.500Z", now));
        ParameterException past = assertThrows(ParameterException.class,
                () -> options.startInstant("2026-11-24T09:59:58Z", now));
        assertEquals("--start-at 2026-11-24T09:59:58Z is 2.0 s in the past; give a later instant, leaving the workers "
                + "time to start and connect", past.getMessage());
    }

    private static WorkerOptions workerOptions(String... flags) {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        CommandLine cl = Main.commandLine(new Io(sink, sink, false));
        String[] args = new String[flags.length + 1];
        args[0] = "e2e";
        System.arraycopy(flags, 0, args, 1, flags.length);
        cl.parseArgs(args);
        return ((E2eCommand) cl.getSubcommands().get("e2e").getCommand()).workers;
    }
}
