package dev.msgbench.core.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.SettingNames;
import dev.msgbench.core.broker.Signal;
import dev.msgbench.core.testing.InMemorySystem;
import dev.msgbench.core.testing.ManualClock;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FaultInjectorTest {

    private final ManualClock clock = new ManualClock(0);
    private final InMemorySystem target = new InMemorySystem(clock);
    private final List<FaultEvent> recorded = new CopyOnWriteArrayList<>();

    private FaultInjector start(String... faults) {
        FaultPlan plan = new FaultPlan(java.util.Arrays.stream(faults).map(FaultSpec::parse).toList(), Duration.ofSeconds(5));
        return FaultInjector.start(plan, target, clock.watcher(), 0, DeliveryProbe.of(() -> 0, () -> false), recorded::add,
                SettingNames.KEYS);
    }

    @Test
    void aRunThatEndsDuringAPauseLeavesNoNodeStopped() {
        FaultInjector injector = start("pause=10s@1s");
        clock.advance(2_000_000_000L);
        assertEquals(List.of("signal STOP 1"), target.events());

        injector.stop();

        assertEquals(List.of("signal STOP 1", "signal CONT 1"), target.events());
        assertEquals(List.of(new FaultEvent("pause=10s@1s", "pause", 1, 1.0, 1.0, 2.0, "done", null, null)), recorded);
    }

    @Test
    void theResumeOnStopIsNotCutShortByTheInterruptThatStopsTheInjector() {
        List<String> signals = new CopyOnWriteArrayList<>();
        FaultTarget interruptible = new FaultTarget() {
            @Override
            public int nodeCount() {
                return 1;
            }

            @Override
            public java.util.OptionalInt leaderNode() {
                return java.util.OptionalInt.of(1);
            }

            @Override
            public void signal(int node, Signal signal) {
                // a real resume waits for the kill command, which a pending interrupt would cut short
                signals.add(signal + (Thread.currentThread().isInterrupted() ? " interrupted" : ""));
            }

            @Override
            public void killNode(int node) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void stopNode(int node) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void restartNode(int node, Duration timeout) {
                throw new UnsupportedOperationException();
            }
        };
        FaultInjector injector = FaultInjector.start(new FaultPlan(List.of(FaultSpec.parse("pause=10s@1s")),
                Duration.ofSeconds(5)), interruptible, clock.watcher(), 0, DeliveryProbe.of(() -> 0, () -> false),
                recorded::add, SettingNames.KEYS);
        clock.advance(2_000_000_000L);

        injector.stop();

        assertEquals(List.of("STOP", "CONT"), signals);
        assertEquals("done", recorded.get(0).outcome());
    }

    @Test
    void faultsNotYetDueWhenTheRunEndsNeverHappenAndAKilledNodeWaitingForItsRestartStaysDown() {
        FaultInjector injector = start("kill@1s", "pause=1s@30s");
        clock.advance(3_000_000_000L);

        injector.stop();

        assertEquals(List.of("kill 1"), target.events());
        assertEquals(List.of(new FaultEvent("kill@1s", "kill", 1, 1.0, 1.0, null, "done", null, null)), recorded);
    }

    /** As the power goes: no node acknowledges anything after the first one died, and a quorum comes back together. */
    @Test
    void aPowerLossOfEveryNodeKillsThemAllBeforeCuttingAnyDiskAndRestartsThemTogether() {
        target.withNodes(3, OptionalInt.of(2));
        FaultInjector injector = start("power-loss@1s:node=all:restart-after=2s");
        clock.advance(4_000_000_000L);

        injector.stop();

        assertEquals(List.of("kill 1", "kill 2", "kill 3", "power cut 1", "power cut 2", "power cut 3", "restart [1, 2, 3]"),
                target.events());
        FaultEvent event = recorded.get(0);
        assertEquals(new FaultEvent("power-loss@1s:node=all:restart-after=2s", "power-loss", null, 1.0, 1.0, 3.0, "done",
                null, null, List.of(new NodePowerCut(1, 1, 10, 1000, 1), new NodePowerCut(2, 2, 10, 2000, 1),
                        new NodePowerCut(3, 3, 10, 3000, 1))), event);
        assertEquals("[fault power-loss node=all asked 1.000s done 1.000s ended 3.000s rolled back 6 files, 6,000 bytes "
                + "of unsynced appends, 30 bytes restored, 3 names undone]", event.timelineComment());
    }

    /** A Pulsar cluster: brokers 1 to 3 keep nothing of a message, bookies 4 to 6 keep it all. */
    @Test
    void aPowerLossOfEveryNodeHitsOnlyTheNodesThatKeepMessagesOnADisk() {
        target.withNodes(6, OptionalInt.of(2)).withDiskNodes(List.of(4, 5, 6));
        FaultInjector injector = start("power-loss@1s:node=all:restart-after=2s", "slow-disk=50ms@5s:for=1s:node=all");
        clock.advance(7_000_000_000L);

        injector.stop();

        assertEquals(List.of("kill 4", "kill 5", "kill 6", "power cut 4", "power cut 5", "power cut 6",
                "restart [4, 5, 6]", "slow disk 4 50ms", "slow disk 5 50ms", "slow disk 6 50ms", "heal disk 4",
                "heal disk 5", "heal disk 6"), target.events());
        assertEquals("done", recorded.get(0).outcome());
        assertEquals(List.of(4, 5, 6), recorded.get(0).powerCuts().stream().map(NodePowerCut::node).toList());
    }

    @Test
    void aPowerLossOfOneNodeHitsTheLeaderOfTheMomentAndRestartsItAfterFiveSeconds() {
        target.withNodes(3, OptionalInt.of(2));
        FaultInjector injector = start("power-loss@1s");
        clock.advance(7_000_000_000L);

        injector.stop();

        assertEquals(List.of("kill 2", "power cut 2", "restart [2]"), target.events());
        assertEquals(new FaultEvent("power-loss@1s", "power-loss", 2, 1.0, 1.0, 6.0, "done", null, null,
                List.of(new NodePowerCut(2, 2, 10, 2000, 1))), recorded.get(0));
    }

    @Test
    void aSlowDiskHitsTheLeaderOfTheMomentAndIsHealedAfterItsTime() {
        target.withNodes(3, OptionalInt.of(2));
        FaultInjector injector = start("slow-disk=50ms@1s:for=3s");
        clock.advance(2_000_000_000L);
        assertEquals(List.of("slow disk 2 50ms"), target.events());
        clock.advance(3_000_000_000L);

        injector.stop();

        assertEquals(List.of("slow disk 2 50ms", "heal disk 2"), target.events());
        assertEquals(List.of(new FaultEvent("slow-disk=50ms@1s:for=3s", "slow-disk", 2, 1.0, 1.0, 4.0, "done", null,
                null)), recorded);
    }

    @Test
    void aFullDiskOfEveryNodeIsFreedOnEveryNodeAfterItsTime() {
        target.withNodes(3, OptionalInt.of(2));
        FaultInjector injector = start("disk-full@1s:for=2s:node=all");
        clock.advance(4_000_000_000L);

        injector.stop();

        assertEquals(List.of("fill disk 1", "fill disk 2", "fill disk 3", "free disk 1", "free disk 2", "free disk 3"),
                target.events());
        assertEquals(List.of(new FaultEvent("disk-full@1s:for=2s:node=all", "disk-full", null, 1.0, 1.0, 3.0, "done",
                null, null)), recorded);
        assertEquals("[fault disk-full node=all asked 1.000s done 1.000s ended 3.000s]", recorded.get(0).timelineComment());
    }

    @Test
    void aRunThatEndsWhileADiskIsSickLeavesItHealed() {
        FaultInjector injector = start("slow-disk=1s@1s:for=1m", "disk-full@2s:for=1m");
        clock.advance(3_000_000_000L);
        assertEquals(List.of("slow disk 1 1s", "fill disk 1"), target.events());

        injector.stop();

        assertEquals(List.of("slow disk 1 1s", "fill disk 1", "heal disk 1", "free disk 1"), target.events());
        assertEquals(List.of(new FaultEvent("slow-disk=1s@1s:for=1m", "slow-disk", 1, 1.0, 1.0, 3.0, "done", null, null),
                new FaultEvent("disk-full@2s:for=1m", "disk-full", 1, 2.0, 2.0, 3.0, "done", null, null)), recorded);
    }

    /** A disk that cannot ail fails the fault, and those already sick are healed at once. */
    @Test
    void aDiskThatCannotAilFailsTheFaultAndHealsThoseAlreadySick() {
        target.withNodes(3, OptionalInt.of(1)).withFailingDisk(2);
        FaultInjector injector = start("disk-full@1s:for=5s:node=all");
        clock.advance(2_000_000_000L);

        injector.stop();

        assertEquals(List.of("fill disk 1", "free disk 1"), target.events());
        assertEquals(List.of(new FaultEvent("disk-full@1s:for=5s:node=all", "disk-full", null, 1.0, null, null,
                "failed: IllegalStateException: node 2's disk is not a forgetful disk", null, null)), recorded);
        assertEquals(false, recorded.get(0).everyNode(), "it never got there");
    }

    @Test
    void stoppingTwiceOrWithoutFaultsIsHarmless() {
        FaultInjector none = FaultInjector.start(FaultPlan.NONE, target, clock, 0, DeliveryProbe.of(() -> 0, () -> false),
                recorded::add, SettingNames.KEYS);
        none.stop();
        FaultInjector injector = start("pause=1s@1s");
        injector.stop();
        injector.stop();
        assertEquals(List.of(), target.events());
        assertEquals(List.of(), recorded);
    }
}
