package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.msgbench.cli.cell.CellCheck;
import dev.msgbench.cli.measure.ThroughputCommand;
import dev.msgbench.cli.workload.Catalogs;
import dev.msgbench.cli.workload.Cell;
import dev.msgbench.cli.workload.Expansion;
import dev.msgbench.cli.workload.FlagValue;
import dev.msgbench.cli.workload.Origin;
import dev.msgbench.cli.workload.Scaling;
import dev.msgbench.cli.workload.Setting;
import dev.msgbench.cli.workload.WorkloadFile;
import dev.msgbench.cli.workload.WorkloadReader;

/** From a file to the command lines of its cells: matrix, cells, per-system flags, --set and --scale. */
class WorkloadExpansionTest {

    private static final Io QUIET = new Io(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false);
    private static final Catalogs CATALOGS = CellCheck.catalogs(QUIET);

    @Test
    void theMatrixIsACartesianProductFirstEntryOutermostThenTheCells() {
        List<Cell> cells = cells("""
                name: m
                defaults: {duration: 30s}
                matrix:
                  system: [nats, kafka]
                  size: [256B, 1KiB]
                cells:
                  - {label: slow, rate: 100}
                  - {rate: 2000}
                """);
        assertEquals(List.of("nats size=256B slow", "nats size=256B rate=2000", "nats size=1KiB slow",
                "nats size=1KiB rate=2000", "kafka size=256B slow", "kafka size=256B rate=2000", "kafka size=1KiB slow",
                "kafka size=1KiB rate=2000"), labels(cells));
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8), cells.stream().map(Cell::index).toList());
        assertEquals("e2e --system kafka --duration 30s --size 1KiB --rate 2000 --warmup auto", args(cells.get(7)));
    }

    @Test
    void perSystemFlagsApplyToThatSystemOnlyAndTheCellsOwnFlagsWin() {
        List<Cell> cells = cells("""
                defaults: {rate: 100, broker-prop: {a: 1, b: 2}}
                matrix:
                  system: [nats, kafka]
                cells:
                  - {label: plain}
                  - {label: own, rate: 300, broker-prop: {b: 20, c: 30}}
                per-system:
                  nats: {nats-pattern: request-reply, rate: 200}
                  kafka: {partitions: 3}
                """);
        assertEquals("e2e --system nats --rate 200 --broker-prop a=1 --broker-prop b=2 --nats-pattern request-reply "
                + "--warmup auto", args(cells.get(0)));
        assertEquals("e2e --system nats --rate 300 --broker-prop a=1 --broker-prop b=20 --broker-prop c=30 "
                + "--nats-pattern request-reply --warmup auto", args(cells.get(1)));
        assertEquals("e2e --system kafka --rate 100 --broker-prop a=1 --broker-prop b=2 --partitions 3 --warmup auto",
                args(cells.get(2)));
    }

    @Test
    void aNamedAxisCarriesLabelledSetsOfFlagsAndACellMayRunAnotherCommand() {
        List<Cell> cells = cells("""
                command: throughput
                defaults: {size: 100B}
                matrix:
                  load:
                    - {label: "one consumer", consumers: 1}
                    - {label: "three producers", producers: 3}
                cells:
                  - {label: "throughput", messages: 1000}
                  - {label: "latency", command: e2e, rate: 50}
                """);
        assertEquals(List.of("one consumer throughput", "one consumer latency", "three producers throughput",
                "three producers latency"), labels(cells));
        assertEquals("throughput --size 100B --consumers 1 --messages 1000", args(cells.get(0)),
                "throughput has no warm-up");
        assertEquals("e2e --size 100B --producers 3 --rate 50 --warmup auto", args(cells.get(3)));
    }

    @Test
    void setOverridesEveryCellAndAddsToMaps() {
        WorkloadFile file = WorkloadReader.parse("w.yaml", """
                defaults: {rate: 100, broker-prop: {a: 1}}
                cells:
                  - {system: nats, label: n}
                """, CATALOGS, "kafka");
        List<Setting> set = List.of(
                new Setting("rate", new FlagValue.Scalar("250", FlagValue.Type.UNTYPED), new Origin("--set rate=250")),
                new Setting("broker-prop", new FlagValue.Scalar("b=2", FlagValue.Type.UNTYPED), new Origin("--set broker-prop=b=2")));
        Cell cell = Expansion.cells(file, CATALOGS, set).get(0);
        assertEquals("e2e --system nats --rate 250 --broker-prop a=1 --broker-prop b=2 --warmup auto", args(cell));
    }

    @Test
    void scaleShortensTimesAndCountsButNeverRatesOrSizes() {
        Cell e2e = cells("defaults: {rate: 3000, size: 1MiB, warmup: 5s, duration: 30s, drain-timeout: 10s, poll-timeout: 5ms}\n")
                .get(0);
        assertEquals("e2e --rate 3000 --size 1MiB --warmup 1s --duration 3s --drain-timeout 10s --poll-timeout 5ms",
                args(Scaling.scale(e2e, 0.1, CATALOGS.of("e2e"), 100_000)));
        assertEquals("e2e --rate 3000 --size 1MiB --warmup 5s --duration 30s --drain-timeout 10s --poll-timeout 5ms",
                args(Scaling.scale(e2e, 1, CATALOGS.of("e2e"), 100_000)), "1 changes nothing");
        assertEquals("e2e --rate 3000 --size 1MiB --warmup 10s --duration 1m --drain-timeout 10s --poll-timeout 5ms",
                args(Scaling.scale(e2e, 2, CATALOGS.of("e2e"), 100_000)), "more than 1 lengthens");

        Cell defaults = cells("defaults: {rate: 10}\n").get(0);
        assertEquals("e2e --rate 10 --warmup auto --duration 5s", args(Scaling.scale(defaults, 0.5, CATALOGS.of("e2e"), 1)),
                "the command's default duration (10s) is scaled too, and the cells' default warm-up not at all");

        Cell throughput = cells("command: throughput\ndefaults: {messages: 50000000}\n").get(0);
        assertEquals("throughput --messages 50000", args(Scaling.scale(throughput, 0.001, CATALOGS.of("throughput"), 1)));
        assertEquals("throughput --messages 1", args(Scaling.scale(throughput, 1e-12, CATALOGS.of("throughput"), 1)));
        Cell unset = cells("command: throughput\ndefaults: {size: 1KiB}\n").get(0);
        assertEquals("throughput --size 1KiB --messages 10000",
                args(Scaling.scale(unset, 0.1, CATALOGS.of("throughput"), ThroughputCommand.DEFAULT_MESSAGES)));
        Cell timed = cells("command: throughput\ndefaults: {duration: 1m}\n").get(0);
        assertEquals("throughput --duration 6s", args(Scaling.scale(timed, 0.1, CATALOGS.of("throughput"), 100_000)),
                "a cell limited by time gets no message count");
    }

    @Test
    void scaleShortensEachPartOfARateScheduleAndKeepsItsRates() {
        Cell cell = cells("defaults: {rate-schedule: '1000/s for 30s, 1000/s to 5000/s over 60s, 2 x (9000/s for 2s)'}\n")
                .get(0);
        assertEquals("e2e --rate-schedule 1000/s for 3s, 1000/s to 5000/s over 6s, 9000/s for 1s, 9000/s for 1s "
                        + "--warmup 1s",
                args(Scaling.scale(cell, 0.1, CATALOGS.of("e2e"), 1)),
                "each part a tenth as long, at least a second; no duration beside the schedule");
    }

    @Test
    void scaleMovesAFaultToTheSameShareOfTheRunButKeepsWhatTheSystemTakesToComeBack() {
        Cell cell = cells("defaults: {rate: 2000, warmup: 0s, duration: 30s, backlog: 40000, "
                + "fault: 'power-loss@15s:node=all:restart-after=5s'}\n").get(0);
        assertEquals("e2e --rate 2000 --warmup 0s --duration 3s --backlog 4000 "
                        + "--fault power-loss@1500ms:node=all:restart-after=5s",
                args(Scaling.scale(cell, 0.1, CATALOGS.of("e2e"), 1)));
        assertEquals("slow-disk=50ms@1s:for=1s", Scaling.scaledFault("slow-disk=50ms@10s:for=10s", 0.1),
                "how long the disk ails is on the run's timeline; the delay it adds is the disk's");
        assertEquals("pause=2s@2s", Scaling.scaledFault("pause=4s@4s", 0.5));
        assertEquals("exec@3s='kill -STOP 1'", Scaling.scaledFault("exec@30s='kill -STOP 1'", 0.1));
        assertEquals("kill@1s:restart-after=never", Scaling.scaledFault("kill@200ms:restart-after=never", 5));
        assertEquals("power-loss@soon", Scaling.scaledFault("power-loss@soon", 0.1), "left for the command's own error");
        Cell two = cells("defaults: {duration: 1m, fault: ['kill@20s', 'restart@40s']}\n").get(0);
        assertEquals("e2e --duration 6s --fault kill@2s --fault restart@4s --warmup auto",
                args(Scaling.scale(two, 0.1, CATALOGS.of("e2e"), 1)));
    }

    @Test
    void aCellWithoutAWarmupWarmsUpUntilSettledWhateverTheScale() {
        Cell e2e = cells("defaults: {rate: 3000, duration: 30s}\n").get(0);
        assertEquals("e2e --rate 3000 --duration 30s --warmup auto", args(e2e));
        assertEquals("e2e --rate 3000 --duration 3s --warmup auto", args(Scaling.scale(e2e, 0.1, CATALOGS.of("e2e"), 1)),
                "a quick look must not cut a fresh broker's warm-up short: neither it nor its bound scales");
        assertEquals("e2e --rate 3000 --duration 1m --warmup auto", args(Scaling.scale(e2e, 2, CATALOGS.of("e2e"), 1)));
        Cell bounded = cells("defaults: {rate: 3000, warmup: 'auto:90s'}\n").get(0);
        assertEquals("e2e --rate 3000 --warmup auto:90s --duration 5s",
                args(Scaling.scale(bounded, 0.5, CATALOGS.of("e2e"), 1)));
        Cell fixed = cells("defaults: {rate: 3000, warmup: 5s}\n").get(0);
        assertEquals("e2e --rate 3000 --warmup 5s", args(fixed), "a warm-up the file sets is kept");
    }

    @Test
    void aScaledTimeKeepsAtLeastASecondUnlessItWasShorterAndZeroStaysZero() {
        assertEquals("e2e --rate 10 --warmup 1s --duration 1s",
                args(Scaling.scale(cells("defaults: {rate: 10, warmup: 5s, duration: 2s}\n").get(0), 0.1, CATALOGS.of("e2e"), 1)));
        Cell cell = cells("defaults: {rate: 10, warmup: 0s, duration: 500ms}\n").get(0);
        assertEquals("e2e --rate 10 --warmup 0s --duration 500ms", args(Scaling.scale(cell, 0.01, CATALOGS.of("e2e"), 1)));
        Cell minutes = cells("defaults: {rate: 10, warmup: 30m, duration: 60m}\n").get(0);
        assertEquals("e2e --rate 10 --warmup 4s --duration 7200ms",
                args(Scaling.scale(minutes, 0.002, CATALOGS.of("e2e"), 1)),
                "a warm-up of whole seconds stays whole, so that it ends on an interval of latency.hlog");
        Cell odd = cells("defaults: {rate: 10, warmup: 2500ms}\n").get(0);
        assertEquals("e2e --rate 10 --warmup 1250ms --duration 5s", args(Scaling.scale(odd, 0.5, CATALOGS.of("e2e"), 1)));
    }

    private static List<Cell> cells(String yaml) {
        return Expansion.cells(WorkloadReader.parse("w.yaml", yaml, CATALOGS, "kafka"), CATALOGS, List.of());
    }

    private static String args(Cell cell) {
        return String.join(" ", cell.args(CATALOGS.of(cell.command())));
    }

    private static List<String> labels(List<Cell> cells) {
        List<String> labels = new ArrayList<>();
        cells.forEach(c -> labels.add(c.label()));
        return labels;
    }
}
