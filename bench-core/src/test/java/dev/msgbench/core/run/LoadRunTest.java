package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.analysis.Steadiness;
import dev.msgbench.core.driver.DeliveryPromise;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;
import dev.msgbench.core.time.Arrival;
import dev.msgbench.core.time.NanoClock;

/**
 * Runs go on the fake clock, where the in-memory system answers on the publishing thread: every
 * count, rate and interval is then exact. Two unpaced runs whose rates are this machine's stay on
 * the real clock; they wait for nothing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoadRunTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ManualClock clock = new ManualClock(0);

    private RunResult run(RunSpec config, InMemorySystem system) throws Exception {
        return onFakeClock(config, system).execute();
    }

    private LoadRun onFakeClock(RunSpec config, InMemorySystem system) {
        return FakeClockRuns.loadRun(config, system, clock, new PrintStream(out, true, StandardCharsets.UTF_8));
    }

    private RunResult onRealClock(RunSpec config, InMemorySystem system) throws Exception {
        return new LoadRun(config, system, NanoClock.system(), new PrintStream(out, true, StandardCharsets.UTF_8), null, false)
                .execute();
    }

    @Test
    void aCleanRunSendsAndReceivesEveryScheduledMessageAtTheTargetRate() throws Exception {
        InMemorySystem system = new InMemorySystem(clock);
        RunResult r = run(RunSpecs.of(dir, 2_000, Duration.ofMillis(500), Duration.ofSeconds(1)), system);

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(3_000, r.counts().sent());
        assertEquals(3_000, r.counts().received());
        assertEquals(3_000, r.counts().acknowledged());
        assertEquals(0, r.counts().lost() + r.counts().duplicated() + r.counts().reordered() + r.counts().unsent() + r.counts().foreign());
        assertEquals(2_000, r.counts().measuredSent());
        assertEquals(2_000, r.latenciesMs().latency().get("count"));
        assertEquals(2_000, r.rates().achievedMsgsPerSec());
        assertEquals(2_000, r.rates().receivedMsgsPerSec());
        // each message went out at its intended time and arrived at once: the engine adds nothing
        assertEquals(0, r.latenciesMs().latency().get("max"));
        assertEquals(0, r.rates().maxBehindScheduleMs());
        assertFalse(r.rates().targetMissed());
        assertEquals(List.of("prepare", "subscribe 0", "ready 0", "publisher 0", "close publisher 0", "close subscriber 0"),
                system.eventsSnapshot());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("sent 3,000   acknowledged 3,000   received 3,000   lost 0"));
    }

    @Test
    void resultJsonRecordsSettingsCountsAndEveryReportedPercentile() throws Exception {
        run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofMillis(500)), new InMemorySystem(clock));
        JsonNode json = ResultFiles.json().readTree(dir.resolve("result.json").toFile());

        assertEquals(2, json.get("schemaVersion").asInt());
        assertEquals("complete", json.get("status").asText());
        assertEquals("in-memory", json.get("system").asText());
        assertEquals("all", json.get("durability").get("acks").asText());
        assertEquals(100, json.get("workload").get("messageSizeBytes").asInt());
        assertEquals(List.of("sent", "acknowledged", "sendErrors", "received", "acknowledgedLost", "unacknowledgedLost",
                "duplicated", "reordered", "late", "unsent", "foreign", "measuredSent", "deliveriesExpected", "subscriptions"), fieldNames(json.get("counts")));
        assertEquals(List.of("targetMsgsPerSec", "achievedMsgsPerSec", "receivedMsgsPerSec", "targetMissed",
                "maxBehindScheduleMs"), fieldNames(json.get("rates")));
        assertEquals(List.of("latency", "service", "sendDelay", "ack"), fieldNames(json.get("latenciesMs")));
        for (String p : List.of("p50", "p75", "p90", "p99", "p99.9", "p99.99", "p99.999", "p99.9999", "max")) {
            assertTrue(json.get("latenciesMs").get("latency").has(p), p);
        }
        assertTrue(json.get("environment").get("cores").asInt() >= 1);
        assertEquals(RunStatus.COMPLETE, ResultFiles.readResult(dir).status());
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void theIntervalLogReadsBackWithHdrHistogramsReaderAndAddsUpToTheWholeRun() throws Exception {
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ofMillis(1_000), Duration.ofMillis(1_500)), new InMemorySystem(clock));

        Map<HistogramKind, Long> counts = new EnumMap<>(HistogramKind.class);
        Map<HistogramKind, List<Long>> intervals = new EnumMap<>(HistogramKind.class);
        HistogramLogReader reader = new HistogramLogReader(dir.resolve("latency.hlog").toFile());
        EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            HistogramKind kind = HistogramKind.ofTag(h.getTag());
            counts.merge(kind, ((Histogram) h).getTotalCount(), Long::sum);
            intervals.computeIfAbsent(kind, k -> new ArrayList<>()).add(((Histogram) h).getTotalCount());
        }
        assertEquals(2_500, counts.get(HistogramKind.LATENCY)); // warm-up included in the log
        assertEquals(2_500, counts.get(HistogramKind.SERVICE));
        assertEquals(2_500, counts.get(HistogramKind.SEND_DELAY));
        assertEquals(2_500, counts.get(HistogramKind.ACK));
        assertEquals(List.of(1_000L, 1_000L, 500L), intervals.get(HistogramKind.LATENCY),
                "one interval a second, plus the last partial one");
        assertEquals(1_500, r.latenciesMs().latency().get("count")); // but not in the results
    }

    @Test
    void intervalsCsvCountsEachSecondSoAnOutageShowsAsSentWithNothingReceived() throws Exception {
        // frozen from 1.0 s to 3.0 s: publishes wait (as a stopped broker's clients do), then the backlog goes out
        InMemorySystem system = new InMemorySystem(clock).freezing(1_000_000_000L, 2_000_000_000L);
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(4)), system);

        List<String> lines = Files.readAllLines(dir.resolve("intervals.csv"));
        assertTrue(lines.get(0).startsWith("# msgbench intervals: "), lines.get(0));
        assertEquals("startSeconds,endSeconds,sent,acknowledged,received,unreceived,gaps,latencyP50Ms,latencyP99Ms,"
                + "latencyMaxMs,cpuBusyShare,cpuStealShare,generatorCores,brokerCores", lines.get(1));
        List<String[]> rows = lines.stream().skip(2).map(l -> l.split(",", -1)).toList();
        assertEquals(List.of("0.000", "1.000", "1000", "1000", "1000", "0", "0"), List.of(rows.get(0)).subList(0, 7));
        assertEquals(List.of("1", "0", "0", "1", "0", "", "", ""), List.of(rows.get(1)).subList(2, 10),
                "the second second: one message sent into the frozen system, nothing back");
        assertEquals(List.of("0", "0", "0", "1", "0", "", "", ""), List.of(rows.get(2)).subList(2, 10));
        assertEquals(r.counts().sent(), rows.stream().mapToLong(row -> Long.parseLong(row[2])).sum());
        assertEquals(r.counts().received(), rows.stream().mapToLong(row -> Long.parseLong(row[4])).sum());
        assertEquals("intervals.csv", r.files().get("intervalCounts"));
    }

    @Test
    void theHgrmFilesHoldTheResultPercentilesInMilliseconds() throws Exception {
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofMillis(500)),
                new InMemorySystem(clock).answeringIn(300_000));
        for (String file : List.of("latency.hgrm", "service.hgrm")) {
            List<String> lines = Files.readAllLines(dir.resolve(file));
            assertTrue(lines.get(0).trim().startsWith("Value"), file + ": " + lines.get(0));
            String maxLine = lines.stream().filter(l -> l.startsWith("#[Max")).findFirst().orElseThrow();
            if (file.equals("latency.hgrm")) {
                double max = Double.parseDouble(maxLine.replaceAll(".*Max\\s*=\\s*([0-9.]+).*", "$1"));
                assertEquals(r.latenciesMs().latency().get("max"), max, r.latenciesMs().latency().get("max") * 0.01);
            }
            assertTrue(maxLine.matches(".*Total count\\s*=\\s*500]"), maxLine);
        }
    }

    @Test
    void lostDuplicatedAndReorderedMessagesAreCountedExactly() throws Exception {
        InMemorySystem system = new InMemorySystem(clock)
                .dropping(s -> s % 10 == 9)
                .duplicating(s -> s == 5 || s == 6)
                .holdingBack(s -> s == 20 || s == 40);
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)), system);

        assertEquals(1_000, r.counts().sent());
        assertEquals(100, r.counts().lost());
        assertEquals(100, r.counts().acknowledgedLost(), "the in-memory system acknowledges what it drops");
        assertEquals(900, r.counts().received());
        assertEquals(2, r.counts().duplicated());
        assertEquals(2, r.counts().reordered());
        assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("drain timed out")), r.warnings().toString());
        assertTrue(r.warnings().stream().noneMatch(w -> w.matches("[0-9,]+ messages lost; .*")), "no hint, no such warning");
    }

    @Test
    void anAtLeastOnceUnorderedSystemHasItsCopiesCalledRedeliveriesAndItsReordersAllowed() throws Exception {
        InMemorySystem system = new InMemorySystem(clock)
                .duplicating(s -> s == 5 || s == 6)
                .holdingBack(s -> s == 20 || s == 40)
                .promising(new DeliveryPromise(false, true, "a queue: at-least-once", "the client saw 2 copies"));
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)), system);

        assertEquals(List.of(0L, 2L, 2L), List.of(r.counts().lost(), r.counts().duplicated(), r.counts().reordered()),
                "counted as ever");
        assertEquals(Map.of("label", "a queue: at-least-once", "order", "not promised: reorders are counted, not faults",
                "redeliveries", "by design (at-least-once): each is counted as a duplicate, not as a fault",
                "witness", "the client saw 2 copies"), r.settings().get("delivery"));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("   lost 0   duplicated 2 (redelivered)   reordered 2 (order not promised)\n"), printed);
        assertTrue(printed.contains("  delivery: a queue: at-least-once: 2 redeliveries counted as duplicates, not faults; "
                + "2 reordered, which it allows (order not promised); the client saw 2 copies\n"), printed);
    }

    @Test
    void aSystemThatPromisesOrderHasNoDeliveryLineAndItsCopiesAreJustDuplicates() throws Exception {
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)),
                new InMemorySystem(clock).duplicating(s -> s == 5).holdingBack(s -> s == 20));

        assertFalse(r.settings().containsKey("delivery"), r.settings().toString());
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("   lost 0   duplicated 1   reordered 1\n"), printed);
        assertFalse(printed.contains("delivery:"), printed);
    }

    @Test
    void acknowledgedMessagesNeverReceivedAreABrokenPromiseTheSummarySaysSo() throws Exception {
        // acknowledged, then lost: 3 of them; and 2 that failed, so never promised
        InMemorySystem system = new InMemorySystem(clock).dropping(s -> s == 10 || s == 20 || s == 21 || s == 500 || s == 999)
                .failingToAcknowledge(s -> s == 20 || s == 21);
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)), system);

        assertEquals(List.of(1_000L, 998L, 2L, 995L, 3L, 2L), List.of(r.counts().sent(), r.counts().acknowledged(),
                r.counts().sendErrors(), r.counts().received(), r.counts().acknowledgedLost(),
                r.counts().unacknowledgedLost()));
        assertEquals(RunStatus.COMPLETE, r.status(), "a broken promise is a result, not a failed run");
        assertTrue(r.warnings().contains("acknowledged messages lost: 3 of 998 acknowledged were never received; the system "
                + "broke the promise of its durability settings"), r.warnings().toString());
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("  **PROMISE BROKEN: acks=all: 3 of 998 acknowledged messages lost; 2 more lost that "
                + "were never acknowledged (not promised)**\n"), printed);
        assertFalse(printed.contains("warning: acknowledged messages lost"), "said once, in its own line");
    }

    @Test
    void messagesAbortedOnPurposeAreNeitherAcknowledgedNorLostAndTheDrainWaitsNotForThem() throws Exception {
        // a read_committed consumer: the aborted messages never arrive
        InMemorySystem system = new InMemorySystem(clock).acknowledgingInBatchesOf(10).dropping(s -> s % 100 < 10)
                .inTransactions(s -> s % 100 < 10, 2_000_000, null);
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)), system);

        assertEquals(List.of(1_000L, 900L, 0L, 900L, 0L, 0L, 100L, 0L), List.of(r.counts().sent(),
                r.counts().acknowledged(), r.counts().sendErrors(), r.counts().received(), r.counts().acknowledgedLost(),
                r.counts().unacknowledgedLost(), r.counts().aborted(), r.counts().abortedDelivered()));
        assertTrue(r.warnings().stream().noneMatch(w -> w.startsWith("drain timed out")), r.warnings().toString());
        assertEquals(2.0, r.latenciesMs().commit().get("p50"), 0.01);
        assertEquals(100.0, r.latenciesMs().commit().get("count"));
        // the percentiles as text, and the histogram whole, which merge adds to other workers'
        assertEquals("commit.hgrm", r.files().get("commit"));
        assertEquals(ResultFiles.COMMIT_LOG, r.files().get("commitLog"));
        assertTrue(Files.isRegularFile(dir.resolve("commit.hgrm")));
        Histogram commits = ResultFiles.readHistogramLog(dir.resolve(ResultFiles.COMMIT_LOG), "the commits");
        assertEquals(r.latenciesMs().commit(), Percentiles.inMillis(commits));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("  aborted on purpose 100 (never acknowledged, not counted as lost)   delivered all the "
                + "same 0\n"), printed);
        assertTrue(printed.contains("commit ms"), printed);
    }

    @Test
    void anAbortedMessageDeliveredIsAFaultUnlessTheSystemSaysWhyItIsExpected() throws Exception {
        InMemorySystem system = new InMemorySystem(clock).inTransactions(s -> s % 100 == 0, 0, null);
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)), system);

        assertEquals(List.of(10L, 10L, 0L), List.of(r.counts().aborted(), r.counts().abortedDelivered(), r.counts().lost()));
        assertTrue(r.warnings().contains("aborted messages delivered: 10 deliveries of the 10 messages aborted on purpose; "
                + "the consumers should have seen none: a fault of the system"), r.warnings().toString());
        assertEquals(null, r.latenciesMs().commit(), "no commit was timed");
        assertFalse(Files.exists(dir.resolve(ResultFiles.COMMIT_LOG)));
        assertFalse(r.files().containsKey("commitLog"), r.files().toString());

        RunResult expected = run(RunSpecs.of(dir.resolve("uncommitted"), 1_000, Duration.ZERO, Duration.ofSeconds(1)),
                new InMemorySystem(clock).inTransactions(s -> s % 100 == 0, 0, "they read uncommitted records"));
        assertTrue(expected.warnings().contains("aborted messages delivered: 10 deliveries of the 10 messages aborted on "
                + "purpose; expected: they read uncommitted records"), expected.warnings().toString());
    }

    @Test
    void aThroughputRunLimitedByTimeAloneLeavesNothingUnsent() throws Exception {
        RunSpec config = new RunSpec("throughput", "in-memory",
                new Pacing.Unpaced(Pacing.Unpaced.UNTIL_TIME_LIMIT, 100, Duration.ofMillis(300), false), 100, 2, 1, 1,
                Duration.ofSeconds(1), Duration.ofSeconds(5), dir, false, Map.of());
        RunResult r = run(config, new InMemorySystem(clock).answeringIn(1_000_000));

        assertTrue(r.counts().sent() > 0, "sent " + r.counts().sent());
        assertEquals(0, r.counts().unsent());
        assertTrue(r.warnings().stream().noneMatch(w -> w.contains("were not sent")), r.warnings().toString());
    }

    @Test
    void aRunAtOneLevelThroughoutIsJudgedSteady() throws Exception {
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(8)),
                new InMemorySystem(clock).answeringIn(100_000));

        assertEquals(Steadiness.Verdict.STEADY, r.steadiness().verdict());
        assertEquals(8, r.steadiness().seconds(), "the measured seconds, without the drain");
        assertTrue(r.warnings().stream().noneMatch(w -> w.startsWith("not steady")), r.warnings().toString());
    }

    @Test
    void aSystemThatCannotKeepUpIsNotSteadyAndTheRunSaysSo() throws Exception {
        // 800 messages a second at most, asked for 1,000: every message later than the one before
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(8)),
                new InMemorySystem(clock).answeringIn(1_250_000));

        assertEquals(Steadiness.Verdict.NOT_STEADY, r.steadiness().verdict());
        assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("not steady: latency grew during the run: "
                + "per-second p50 ")), r.warnings().toString());
        assertEquals(r.steadiness(), ResultFiles.readResult(dir).steadiness(), "written and read back");
    }

    @Test
    void theDrainWaitsForEveryAcknowledgedMessageButNotForTheOnesTheSystemRefused() throws Exception {
        // refused during a failover ("no responders"): failed, and never delivered
        InMemorySystem system = new InMemorySystem(clock).dropping(s -> s >= 200 && s < 210)
                .failingToAcknowledge(s -> s >= 200 && s < 210);
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)), system);

        assertEquals(List.of(10L, 0L, 10L), List.of(r.counts().sendErrors(), r.counts().acknowledgedLost(),
                r.counts().unacknowledgedLost()));
        assertTrue(r.warnings().stream().noneMatch(w -> w.startsWith("drain timed out")), r.warnings().toString());
    }

    @Test
    void aSystemThatAcknowledgesNothingPromisedNothingAndItsLossesAreSaidPlainly() throws Exception {
        InMemorySystem system = new InMemorySystem(clock).withoutAcknowledgements(0).dropping(s -> s % 100 == 0);
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)), system);

        assertEquals(List.of(0L, 10L), List.of(r.counts().acknowledgedLost(), r.counts().unacknowledgedLost()));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("  acks=all: nothing was acknowledged, so nothing was promised; 10 of 1,000 messages "
                + "lost\n"), printed);
        assertFalse(printed.contains("PROMISE"), printed);
    }

    @Test
    void aKeptPromiseIsSaidWithTheDurabilityThatMadeIt() throws Exception {
        run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofMillis(500)), new InMemorySystem(clock));

        assertTrue(out.toString(StandardCharsets.UTF_8).contains("  acks=all: 0 of 500 acknowledged messages lost\n"),
                out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aSystemThatLosesMessagesByDesignSaysHowWhenARunLostSome() throws Exception {
        InMemorySystem system = new InMemorySystem(clock).dropping(s -> s >= 990).losingBecause("the log keeps 990 entries");
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)), system);

        assertEquals(10, r.counts().lost());
        assertTrue(r.warnings().contains("10 messages lost; the log keeps 990 entries"), r.warnings().toString());
    }

    @Test
    void messagesAreAccountedPerProducerStream() throws Exception {
        InMemorySystem system = new InMemorySystem(clock).dropping(s -> s == 0);
        RunResult r = run(RunSpecs.withProducers(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)), 4), system);

        assertEquals(1_000, r.counts().sent());
        assertEquals(4, r.counts().lost()); // sequence 0 of each of the four streams
        assertEquals(0, r.counts().reordered() + r.counts().duplicated());
        assertEquals(1_000, r.rates().achievedMsgsPerSec());
    }

    @Test
    void aPublishFailureMidRunKeepsThePartialResultsAndSaysSo() throws Exception {
        InMemorySystem system = new InMemorySystem(clock).failingPublishOf(s -> s == 300);
        RunFailedException e = assertThrows(RunFailedException.class,
                () -> run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(2)), system));

        assertEquals("IllegalStateException: injected failure at sequence 300", e.getMessage());
        RunResult partial = ResultFiles.readResult(dir);
        assertEquals(RunStatus.FAILED, partial.status());
        assertEquals(300, partial.counts().received());
        assertEquals(2_000 - 301, partial.counts().unsent(), "all after the failed one");
        assertTrue(Files.exists(dir.resolve("latency.hgrm")));
        RunResult inMemory = e.partialResult();
        assertEquals(List.of(RunStatus.FAILED, 300L, 2_000L - 301, partial.error()),
                List.of(inMemory.status(), inMemory.counts().received(), inMemory.counts().unsent(), inMemory.error()),
                "the failure carries the result it wrote");
        assertTrue(system.eventsSnapshot().contains("close publisher 0"));
    }

    @Test
    void aSubscriberThatFailsWhileTheRunDrainsFailsTheRunWithItsPartialResults() throws Exception {
        // consumers that start after the last acknowledgement read while the run drains: the one that breaks there
        RunSpec config = new RunSpec("throughput", "in-memory", new Pacing.Unpaced(1_000, 100, Duration.ofSeconds(10), true),
                100, 1, 1, 1, Duration.ofSeconds(1), Duration.ofSeconds(5), dir, false, Map.of());
        InMemorySystem system = new InMemorySystem().retaining().failingSubscribersAt(s -> s == 600);
        RunFailedException e = assertThrows(RunFailedException.class, () -> onRealClock(config, system));

        assertEquals("IllegalStateException: injected failure of subscriber 0 at sequence 600", e.getMessage());
        RunResult written = ResultFiles.readResult(dir);
        assertEquals(List.of(RunStatus.FAILED, 1_000L, 600L, e.getMessage()),
                List.of(written.status(), written.counts().sent(), written.counts().received(), written.error()));
        assertTrue(written.warnings().contains("subscriber failed: " + e.getMessage()), written.warnings().toString());
    }

    @Test
    void aSubscriberThatFailsMidRunFailsTheRunWithItsPartialResults() throws Exception {
        InMemorySystem system = new InMemorySystem(clock).failingSubscribersAt(s -> s == 700);
        RunFailedException e = assertThrows(RunFailedException.class,
                () -> run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(2)), system));

        assertEquals("IllegalStateException: injected failure of subscriber 0 at sequence 700", e.getMessage());
        RunResult written = ResultFiles.readResult(dir);
        assertEquals(RunStatus.FAILED, written.status());
        assertEquals(700, written.counts().received());
        assertTrue(system.eventsSnapshot().contains("close subscriber 0"));
    }

    @Test
    void clientsThatFailToCloseFailTheRunAfterItsResultsAreWritten() throws Exception {
        InMemorySystem system = new InMemorySystem(clock).failingToClose();
        RunFailedException e = assertThrows(RunFailedException.class,
                () -> run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofMillis(500)), system));

        assertEquals("IllegalStateException: injected failure closing publisher 0", e.getMessage());
        assertEquals(1, e.getCause().getSuppressed().length, "the subscriber's failure is kept with it");
        RunResult written = ResultFiles.readResult(dir);
        assertEquals(List.of(RunStatus.FAILED, 500L, 500L, e.getMessage()),
                List.of(written.status(), written.counts().sent(), written.counts().received(), written.error()));
        assertEquals(List.of("prepare", "subscribe 0", "ready 0", "publisher 0", "close publisher 0", "close subscriber 0"),
                system.eventsSnapshot(), "every client is closed although the first failed");
    }

    @Test
    void anInterruptedRunWritesItsResultsBeforeReturning() throws Exception {
        InMemorySystem system = new InMemorySystem(clock);
        LoadRun loadRun = onFakeClock(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(30)), system);
        // Ctrl+C while message 999 is published, one second into the run; a shutdown hook waiting
        // for the results here would wait for this very thread, so this one returns at once
        system.whilePublishing(999, () -> loadRun.interruptAndAwait(0));
        RunResult r = loadRun.execute();

        assertEquals(RunStatus.INTERRUPTED, r.status());
        assertEquals(RunStatus.INTERRUPTED, ResultFiles.readResult(dir).status());
        assertEquals(1_000, r.counts().sent());
        assertEquals(1_000, r.counts().received());
        assertEquals(29_000, r.counts().unsent());
        assertTrue(r.warnings().contains("29,000 scheduled messages were not sent (run stopped early)"), r.warnings().toString());
        assertFalse(r.rates().targetMissed());
    }

    @Test
    void aRunThatCannotKeepUpSaysItMissedItsTargetRate() throws Exception {
        // every publish takes 2 ms, so message i goes out at 2i ms instead of i ms, the last at 1.998 s
        InMemorySystem system = new InMemorySystem(clock).answeringIn(2_000_000);
        RunResult r = run(RunSpecs.of(dir, 1_000, Duration.ZERO, Duration.ofSeconds(1)), system);

        assertTrue(r.rates().targetMissed());
        assertEquals(1_000 / 1.998, r.rates().achievedMsgsPerSec(), 1e-9);
        // (not the only warning: a run this short in real time may also say the load generator was busy)
        assertTrue(r.warnings().contains("target rate missed: achieved 500.5 msg/s of 1000.0 (50.1%)"), r.warnings().toString());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("**TARGET RATE MISSED: achieved "));
        assertTrue(ResultFiles.json().readTree(dir.resolve("result.json").toFile()).get("rates").get("targetMissed").asBoolean());
    }

    @Test
    void unpacedRunsSendTheAskedNumberAsFastAsAcceptedAndReportRatesAtBothEnds() throws Exception {
        RunResult r = onRealClock(RunSpecs.withProducers(RunSpecs.unpaced(dir, 100_001, 50), 3), new InMemorySystem());

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(100_001, r.counts().sent());
        assertEquals(100_001, r.counts().received());
        assertEquals(100_001, r.counts().acknowledged());
        assertEquals(0, r.counts().lost() + r.counts().unsent());
        assertEquals("unpaced", r.workload().pacing());
        assertEquals(100_001, r.throughput().sent());
        assertTrue(r.throughput().publisherMsgsPerSec() > 1_000, r.throughput().toString());
        assertEquals(r.throughput().publisherMsgsPerSec() * 100 / 1048576.0, r.throughput().publisherMiBPerSec(), 1e-6);
        assertTrue(r.throughput().consumerMsgsPerSec() > 1_000, r.throughput().toString());
        assertFalse(r.rates().targetMissed());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("publisher "), out.toString(StandardCharsets.UTF_8));
        assertTrue((Double) r.loadGenerator().get("cpuSeconds") > 0);
        @SuppressWarnings("unchecked")
        Map<String, Double> hiccups = (Map<String, Double>) r.loadGenerator().get("hiccupMs");
        assertTrue(hiccups.get("count") > 0, "the hiccup meter ran: " + hiccups);
        @SuppressWarnings("unchecked")
        Map<String, Object> pauses = (Map<String, Object>) r.loadGenerator().get("gcPauses");
        assertEquals(java.util.Set.of("count", "totalMs", "maxMs"), pauses.keySet());
        assertTrue(java.nio.file.Files.exists(dir.resolve("hiccup.hgrm")));
        @SuppressWarnings("unchecked")
        Map<String, Object> intervalLog = (Map<String, Object>) r.loadGenerator().get("intervalLog");
        assertEquals(java.util.List.of(Map.of("fromSeconds", 0.0, "lengthSeconds", 1.0)), intervalLog.get("intervals"),
                "a short run: seconds only");
        assertEquals(java.nio.file.Files.size(dir.resolve("latency.hlog")), intervalLog.get("bytes"));
    }

    @Test
    void anUnpacedStreamNeverHasMoreThanItsLimitAwaitingAcknowledgement() throws Exception {
        InMemorySystem delayedAcks = new InMemorySystem(clock).acknowledgingInBatchesOf(8);
        RunSpec config = new RunSpec("throughput", "in-memory", new Pacing.Unpaced(800, 8, Duration.ofSeconds(10), false), 100,
                1, 0, 1, Duration.ofMillis(100), Duration.ofSeconds(5), dir, false, Map.of());
        RunResult r = run(config, delayedAcks);

        assertEquals(800, r.counts().sent());
        assertEquals(800, r.counts().acknowledged());
        assertEquals(8, delayedAcks.maxUnacknowledged());
    }

    @Test
    void withoutAcknowledgementsThePublisherIsDoneWhenItsFlushReturnsAndNoEmptyTableIsPrinted() throws Exception {
        InMemorySystem system = new InMemorySystem(clock).withoutAcknowledgements(300_000_000L);
        RunSpec config = new RunSpec("throughput", "in-memory", new Pacing.Unpaced(1_000, 100, Duration.ofSeconds(10), false),
                100, 1, 0, 1, Duration.ofMillis(100), Duration.ofSeconds(5), dir, false, Map.of());
        RunResult r = run(config, system);

        assertEquals(1_000, r.counts().sent());
        // the sends take no time on this clock: the publisher's time is the 300 ms flush, exactly
        assertEquals(0.3, r.throughput().publishSeconds(), 1e-9, r.throughput().toString());
        String printed = out.toString(StandardCharsets.UTF_8);
        assertFalse(printed.contains("p50"), "no distribution, no percentile rows:\n" + printed);
        assertTrue(printed.contains("publisher "), printed);
    }

    @Test
    void aFlushThatDoesNotEndIsGivenTheDrainTimeoutThenTheRunEndsWithWhatItHas() throws Exception {
        InMemorySystem system = new InMemorySystem(clock).acknowledgingInBatchesOf(300).flushingUntilClosed();
        RunSpec config = new RunSpec("e2e", "in-memory", new Pacing.FixedRate(1_000, Arrival.UNIFORM, Duration.ZERO,
                Duration.ofSeconds(1)), 100, 1, 1, 1, Duration.ofMillis(200), Duration.ofSeconds(5), dir, false, Map.of());
        RunResult r = run(config, system);

        assertEquals(RunStatus.COMPLETE, r.status());
        assertEquals(1_000, r.counts().sent());
        assertEquals(900, r.counts().acknowledged(), "three batches of 300; the last 100 waited for the flush");
        assertTrue(r.warnings().contains("drain timed out after 200ms: messages still missing are counted as lost"),
                r.warnings().toString());
        assertTrue(system.eventsSnapshot().contains("close publisher 0"), "the close ends the waiting flush");
    }

    /**
     * On the real clock: the blocked producer thread moves no fake time, and the engine notices it
     * by the time that passes meanwhile (about the drain timeout after the 1 s schedule).
     */
    @Test
    void aSendBlockedPastTheDrainTimeoutIsGivenUpAndCountedAsFailedThenTheRunEndsWithWhatItHas() throws Exception {
        InMemorySystem system = new InMemorySystem().blockingPublishOf(s -> s == 500);
        RunSpec config = new RunSpec("e2e", "in-memory", new Pacing.FixedRate(1_000, Arrival.UNIFORM, Duration.ZERO,
                Duration.ofSeconds(1)), 100, 1, 1, 1, Duration.ofMillis(200), Duration.ofSeconds(5), dir, false, Map.of());
        RunResult r = onRealClock(config, system);

        assertEquals(RunStatus.COMPLETE, r.status(), r.error());
        assertEquals(501, r.counts().sent());
        assertEquals(500, r.counts().acknowledged());
        assertEquals(500, r.counts().received());
        assertEquals(1, r.counts().sendErrors(), "the send given up failed");
        assertEquals(0, r.counts().acknowledgedLost());
        assertEquals(499, r.counts().unsent());
        assertTrue(r.warnings().contains("1 sends failed; first: TimeoutException: a send still blocked once the drain "
                + "timeout (200ms) had passed after the schedule ended was given up"), r.warnings().toString());
        assertTrue(r.warnings().contains("drain timed out after 200ms: messages still missing are counted as lost"),
                "its time went to the blocked send: " + r.warnings());
        assertTrue(system.eventsSnapshot().contains("close publisher 0"), system.eventsSnapshot().toString());
    }

    @Test
    void consumersStartingAfterTheLastAcknowledgementReadEverythingStoredAndGetTheirOwnRate() throws Exception {
        RunSpec config = new RunSpec("throughput", "in-memory", new Pacing.Unpaced(5_000, 100, Duration.ofSeconds(10), true),
                100, 2, 1, 1, Duration.ofSeconds(1), Duration.ofSeconds(5), dir, false, Map.of());
        InMemorySystem system = new InMemorySystem().retaining();
        RunResult r = onRealClock(config, system);

        assertEquals(5_000, r.counts().received());
        assertEquals(0, r.counts().lost() + r.counts().reordered() + r.counts().duplicated());
        assertTrue(system.eventsSnapshot().indexOf("subscribe 0") > system.eventsSnapshot().indexOf("publisher 1"),
                system.eventsSnapshot().toString());
        assertTrue(r.throughput().consumeSeconds() < r.throughput().publishSeconds() + 1, r.throughput().toString());
    }

    @Test
    void aFullCollectionBetweenProducingAndConsumingIsMadeAndStatedOnlyWhenConsumingAfterProducing() throws Exception {
        RunSpec config = new RunSpec("throughput", "in-memory", new Pacing.Unpaced(2_000, 100, Duration.ofSeconds(10), true),
                100, 1, 1, 1, Duration.ofSeconds(1), Duration.ofSeconds(5), dir, false, Map.of());
        RunResult r = onRealClock(config, new InMemorySystem().retaining());

        Map<?, ?> between = (Map<?, ?>) ResultFiles.readResult(dir).loadGenerator().get("collectedBetweenPhases");
        assertTrue(between != null && ((Number) between.get("collections")).longValue() >= 1, String.valueOf(between));
        assertTrue(((Map<?, ?>) between.get("heapCommittedMiB")).containsKey("after"), between.toString());
        assertEquals(2_000, r.counts().received());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("a full GC between producing and consuming"), out.toString());

        Path readingWhileProducing = Files.createDirectories(dir.resolve("while"));
        RunResult plain = onRealClock(RunSpecs.unpaced(readingWhileProducing, 2_000, 100), new InMemorySystem());
        assertEquals(2_000, plain.counts().received());
        assertFalse(plain.loadGenerator().containsKey("collectedBetweenPhases"), plain.loadGenerator().keySet().toString());
    }

    @Test
    void consumingAfterProducingIsRefusedForASystemThatKeepsNothing() {
        RunSpec config = new RunSpec("throughput", "in-memory", new Pacing.Unpaced(10, 100, Duration.ofSeconds(10), true),
                100, 1, 1, 1, Duration.ofSeconds(1), Duration.ofSeconds(5), dir, false, Map.of());
        dev.msgbench.core.UserError e = assertThrows(dev.msgbench.core.UserError.class,
                () -> run(config, new InMemorySystem(clock)));
        assertEquals("consume-after-produce: in-memory keeps nothing for consumers that subscribe later; "
                + "use a system that stores messages", e.getMessage());
    }
}
