package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The launchers' common part, with {@code sleep} processes as nodes. */
@Timeout(30)
class AbstractLocalBrokerTest {

    @TempDir
    Path dir;

    private final List<SleepBroker> started = new ArrayList<>();

    @AfterEach
    void closeWhatATestLeft() {
        started.forEach(SleepBroker::close);
    }

    /** Nodes that sleep; {@code steps} runs after they have all started, as a readiness wait would. */
    static final class SleepBroker extends AbstractLocalBroker {

        private final Consumer<SleepBroker> steps;
        final List<Integer> startOrder = new ArrayList<>();
        /** What a restart's readiness wait does; nothing by default. */
        Consumer<Integer> readyCheck = node -> { };
        Readiness budget;
        ManagedProcess helper;

        private SleepBroker(int nodes, Path tempDir, Path logDir, Consumer<SleepBroker> steps) {
            super(nodes, tempDir, logDir, Duration.ofSeconds(5), Duration.ofSeconds(1));
            this.steps = steps;
        }

        private SleepBroker(BrokerSpec spec, Path tempDir, Consumer<SleepBroker> steps) {
            super(spec, tempDir, Duration.ofSeconds(5), Duration.ofSeconds(1));
            this.steps = steps;
        }

        static SleepBroker start(int nodes, Path tempParent, Path logDir, Consumer<SleepBroker> steps) {
            return startBroker("sleep", tempParent, Duration.ofSeconds(7),
                    tempDir -> new SleepBroker(nodes, tempDir, logDir, steps));
        }

        /** With what {@code spec} asks for: its nodes, log dir and forgetful disks. */
        static SleepBroker start(BrokerSpec spec, Path tempParent, Consumer<SleepBroker> steps) {
            return startBroker("sleep", tempParent, Duration.ofSeconds(30), tempDir -> new SleepBroker(spec, tempDir, steps));
        }

        @Override
        public Path dataDir(int node) {
            return tempDir().resolve("node-" + checkNode(node));
        }

        @Override
        protected void bringUp(Readiness budget) {
            this.budget = budget;
            helper = startHelper(sleep("helper", logDir().resolve("helper.log")));
            launchAll();
            steps.accept(this);
        }

        @Override
        protected void awaitNodeReady(int node, Readiness budget) {
            this.budget = budget;
            readyCheck.accept(node);
        }

        @Override
        protected ManagedProcess startNode(int node) {
            startOrder.add(node);
            return sleep("sleep node " + node, logDir().resolve("sleep-" + node + ".log")).start();
        }

        private NativeCommand sleep(String name, Path log) {
            return new NativeCommand(name, List.of("sleep", "600"), Map.of(), tempDir(), log, tempDir());
        }

        Path temp() {
            return tempDir();
        }

        @Override
        public String url() {
            return "sleep://" + nodeCount();
        }

        @Override
        public String version() {
            return "1";
        }

        @Override
        public String toString() {
            return "sleep broker of " + nodesText();
        }
    }

    private SleepBroker start(int nodes, Path logDir, Consumer<SleepBroker> steps) {
        SleepBroker broker = SleepBroker.start(nodes, dir, logDir, steps);
        started.add(broker);
        return broker;
    }

    @Test
    void aStartMakesTheLogDirStartsEveryNodeInOrderWithinTheBudgetAndCloseStopsThemAndRemovesTheTempDir()
            throws IOException {
        SleepBroker broker = start(3, null, b -> { });
        Path temp = broker.temp();
        List<ProcessHandle> nodes = List.of(handle(broker.pid(1)), handle(broker.pid(2)), handle(broker.pid(3)));
        ProcessHandle helper = handle(broker.helper.pid());

        assertEquals(List.of(1, 2, 3), broker.startOrder);
        assertEquals(3, nodes.stream().map(ProcessHandle::pid).distinct().count());
        assertTrue(nodes.stream().allMatch(ProcStat::isRunning), "every node runs");
        assertEquals(Duration.ofSeconds(7), broker.budget.timeout());
        assertTrue(temp.getFileName().toString().startsWith("msgbench-sleep-"), temp.toString());
        assertEquals(temp.resolve("logs"), broker.logDir());
        assertTrue(Files.isDirectory(broker.logDir()));
        assertEquals("sleep broker of 3 nodes", broker.toString());

        broker.close();

        assertTrue(nodes.stream().noneMatch(ProcStat::isRunning), "every node stopped");
        assertFalse(ProcStat.isRunning(helper), "the helper stopped too");
        assertFalse(Files.exists(temp), "temp dir removed");
        broker.close();
    }

    @Test
    void logsInAGivenDirectoryOutliveTheBroker() {
        Path logs = dir.resolve("given-logs");
        SleepBroker broker = start(1, logs, b -> { });
        broker.close();
        assertTrue(Files.exists(logs.resolve("sleep-1.log")), "the node's log is kept");
    }

    @Test
    void nodesAreCountedFromOneAndOthersAreRefused() {
        SleepBroker single = start(1, null, b -> { });
        assertEquals("node must be 1, got 2",
                assertThrows(IllegalArgumentException.class, () -> single.pid(2)).getMessage());
        SleepBroker pair = start(2, null, b -> { });
        assertEquals("node must be 1 to 2, got 0",
                assertThrows(IllegalArgumentException.class, () -> pair.signal(0, Signal.STOP)).getMessage());
        assertEquals("node must be 1 to 2, got 3",
                assertThrows(IllegalArgumentException.class, () -> pair.pid(3)).getMessage());
    }

    @Test
    void aSignalReachesOneNodeOnly() {
        SleepBroker broker = start(2, null, b -> { });

        broker.signal(2, Signal.STOP);
        ManagedProcessTest.waitUntil(() -> ProcStat.state(broker.pid(2)).equals(Optional.of('T')));
        assertFalse(ProcStat.isStopped(broker.pid(1)), "node 1 still runs");

        broker.signal(2, Signal.CONT);
        ManagedProcessTest.waitUntil(() -> !ProcStat.isStopped(broker.pid(2)));
    }

    @Test
    void aFailedStartStopsWhatItStartedAndKeepsOnlyTheLogsOfItsTempDir() throws IOException {
        List<ProcessHandle> nodes = new ArrayList<>();
        UserError e = assertThrows(UserError.class, () -> start(2, null, b -> {
            nodes.add(handle(b.pid(1)));
            nodes.add(handle(b.pid(2)));
            throw new UserError("sleep node 2 was not ready");
        }));

        assertEquals("sleep node 2 was not ready", e.getMessage());
        assertTrue(nodes.stream().noneMatch(ProcStat::isRunning), "the started nodes are stopped");
        Path temp = onlyEntry(dir);
        assertEquals(List.of(temp.resolve("logs")), entries(temp), "only the logs are left, for the message");
        assertTrue(Files.exists(temp.resolve("logs").resolve("sleep-2.log")));
    }

    @Test
    void aBrokerClosedDuringItsStartStartsNoFurtherNode() throws IOException {
        UserError e = assertThrows(UserError.class, () -> start(1, null, b -> {
            b.close(); // as the shutdown hook does on Ctrl+C
            b.launch(1);
        }));
        assertEquals("sleep broker of 1 node was stopped during its start", e.getMessage());
        assertEquals(0, e.getSuppressed().length, "what the close stopped and removed is not stopped again");
        assertEquals(List.of(), entries(dir), "the close removed the temp dir, logs and all");
    }

    @Test
    void aKilledNodeIsGoneSaysItWasKilledAndARestartStartsItAgainWithinItsOwnBudget() {
        SleepBroker broker = start(2, null, b -> { });
        ProcessHandle killed = handle(broker.pid(2));
        assertNull(broker.exitDescription(2), "a running node has no exit");

        broker.killNode(2);

        assertFalse(ProcStat.isRunning(killed), "gone when killNode returns");
        assertEquals("killed by signal 9 (SIGKILL)", broker.exitDescription(2));
        assertNull(broker.exitDescription(1), "node 1 still runs");

        broker.restartNode(2, Duration.ofSeconds(4));

        assertEquals(List.of(1, 2, 2), broker.startOrder, "node 2 started again through startNode");
        assertNotEquals(killed.pid(), broker.pid(2));
        assertTrue(ProcStat.isRunning(handle(broker.pid(2))), "the new node 2 runs");
        assertNull(broker.exitDescription(2));
        assertEquals(Duration.ofSeconds(4), broker.budget.timeout(), "the readiness wait got the restart's budget");
    }

    /** A cluster that lost every node needs a quorum back before any node is ready: all start before the first wait. */
    @Test
    void nodesRestartedTogetherAllStartBeforeAnyIsWaitedForWithinOneBudget() {
        SleepBroker broker = start(3, null, b -> { });
        broker.killNode(1);
        broker.killNode(3);
        List<List<Integer>> startedWhenWaited = new ArrayList<>();
        List<Readiness> budgets = new ArrayList<>();
        broker.readyCheck = node -> {
            startedWhenWaited.add(List.copyOf(broker.startOrder));
            budgets.add(broker.budget);
        };

        broker.restartNodes(List.of(3, 1), Duration.ofSeconds(4));

        assertEquals(List.of(List.of(1, 2, 3, 3, 1), List.of(1, 2, 3, 3, 1)), startedWhenWaited);
        assertTrue(budgets.get(0) == budgets.get(1), "one budget for the waits of both");
        assertTrue(ProcStat.isRunning(handle(broker.pid(1))) && ProcStat.isRunning(handle(broker.pid(3))));
    }

    @Test
    void aBrokerOnPlainDisksCannotLosePower() {
        SleepBroker broker = start(1, null, b -> { });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> broker.powerCut(1));
        assertEquals("the broker runs on plain disks (no forgetful disks asked for); node 1 cannot lose power",
                e.getMessage());
        assertNull(broker.exitDescription(1), "the node was not killed");
    }

    @Test
    void aBrokerOnPlainDisksCannotHaveASlowOrFullDisk() {
        SleepBroker broker = start(1, null, b -> { });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> broker.fillDisk(1));
        assertEquals("the broker runs on plain disks (no forgetful disks asked for); node 1 cannot have a slow or full "
                + "disk", e.getMessage());
        assertThrows(IllegalStateException.class, () -> broker.slowDisk(1, Duration.ofMillis(5)));
        assertThrows(IllegalStateException.class, () -> broker.healDisk(1));
        assertThrows(IllegalStateException.class, () -> broker.freeDisk(1));
    }

    @Test
    void aStoppedNodeEndsOnSigtermAndARunningOrFrozenNodeIsNotRestarted() {
        SleepBroker broker = start(1, null, b -> { });
        broker.signal(1, Signal.STOP);
        IllegalStateException running = assertThrows(IllegalStateException.class,
                () -> broker.restartNode(1, Duration.ofSeconds(4)));
        assertEquals("sleep node 1 (pid " + broker.pid(1) + ") still runs; stop or kill it before restarting it",
                running.getMessage());

        broker.stopNode(1);

        assertEquals("killed by signal 15 (SIGTERM)", broker.exitDescription(1), "a frozen node is woken to stop");
    }

    @Test
    void aClosedBrokerRestartsNothing() {
        SleepBroker broker = start(1, null, b -> { });
        broker.killNode(1);
        broker.close();
        UserError e = assertThrows(UserError.class, () -> broker.restartNode(1, Duration.ofSeconds(4)));
        assertEquals("sleep broker of 1 node is closed; sleep node 1 is not restarted", e.getMessage());
    }

    @Test
    void aCloseDuringARestartStopsTheNewNodeAndRemovesTheTempDir() throws IOException {
        SleepBroker broker = start(1, null, b -> { });
        broker.killNode(1);
        List<ProcessHandle> restarted = new ArrayList<>();
        broker.readyCheck = node -> {
            restarted.add(handle(broker.pid(node)));
            broker.close(); // as the shutdown hook does on Ctrl+C
            Readiness.requireRunning(List.of(broker.startedNodes().get(node - 1)));
        };

        UserError e = assertThrows(UserError.class, () -> broker.restartNode(1, Duration.ofSeconds(4)));

        assertEquals("sleep node 1 was stopped during its restart", e.getMessage());
        assertFalse(ProcStat.isRunning(restarted.get(0)), "no orphan node");
        assertEquals(List.of(), entries(dir), "the temp dir is removed");
    }

    private static ProcessHandle handle(long pid) {
        return ProcessHandle.of(pid).orElseThrow();
    }

    private static List<Path> entries(Path directory) throws IOException {
        try (Stream<Path> list = Files.list(directory)) {
            return list.collect(Collectors.toList());
        }
    }

    private static Path onlyEntry(Path directory) throws IOException {
        List<Path> all = entries(directory);
        assertEquals(1, all.size(), all.toString());
        return all.get(0);
    }
}
