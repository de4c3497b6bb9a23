package dev.msgbench.core.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.DataDisks;

class FaultSpecTest {

    @Test
    void aPauseHasItsLengthAndTimeAndHitsTheLeaderByDefault() {
        FaultSpec f = FaultSpec.parse("pause=2s@10s");
        assertEquals(FaultKind.PAUSE, f.kind());
        assertEquals(Duration.ofSeconds(2), f.pause());
        assertEquals(Duration.ofSeconds(10), f.at());
        assertEquals(NodeChoice.LEADER, f.node());
        assertNull(f.restartAfter());
        assertEquals("pause=2s@10s", f.text());
    }

    @Test
    void aKillRestartsAfterFiveSecondsUnlessToldOtherwise() {
        assertEquals(Duration.ofSeconds(5), FaultSpec.parse("kill@10s").restartAfter());
        assertEquals(Duration.ofSeconds(3), FaultSpec.parse("kill@10s:restart-after=3s").restartAfter());
        assertNull(FaultSpec.parse("kill@10s:restart-after=never").restartAfter());
    }

    @Test
    void aNodeIsANumberTheLeaderOrAnyFollowerInAnyOrderOfOptions() {
        assertEquals(NodeChoice.node(2), FaultSpec.parse("kill@1m:node=2:restart-after=500ms").node());
        assertEquals(Duration.ofMillis(500), FaultSpec.parse("kill@1m:node=2:restart-after=500ms").restartAfter());
        assertEquals(Duration.ofMinutes(1), FaultSpec.parse("kill@1m:node=2").at());
        assertEquals(NodeChoice.LEADER, FaultSpec.parse("restart@10s:node=leader").node());
        assertEquals(NodeChoice.ANY_FOLLOWER, FaultSpec.parse("pause=1s@0s:node=any-follower").node());
        assertEquals(Duration.ZERO, FaultSpec.parse("pause=1s@0s:node=any-follower").at());
    }

    @Test
    void aNodeASystemNamesIsItsRoleAndItsNumberAmongThemUntilTheSystemNumbersIt() {
        FaultSpec f = FaultSpec.parse("power-loss@2s:node=bookie-2");
        assertEquals(NodeChoice.named("bookie", 2), f.node());
        assertEquals("bookie-2", f.node().label());
        FaultSpec numbered = f.withNode(NodeChoice.node(5));
        assertEquals(NodeChoice.node(5), numbered.node());
        assertEquals("power-loss@2s:node=bookie-2", numbered.text(), "the fault as given, for the results");
        assertEquals(f.restartAfter(), numbered.restartAfter());
        assertEquals(NodeChoice.named("bookie", 1), FaultSpec.parse("kill@1s:node=bookie-1:restart-after=2s").node());
    }

    @Test
    void aPowerLossRestartsAfterFiveSecondsUnlessToldOtherwiseAndMayHitEveryNode() {
        FaultSpec f = FaultSpec.parse("power-loss@10s");
        assertEquals(FaultKind.POWER_LOSS, f.kind());
        assertEquals("power-loss", f.kind().label());
        assertEquals(Duration.ofSeconds(10), f.at());
        assertEquals(NodeChoice.LEADER, f.node());
        assertEquals(Duration.ofSeconds(5), f.restartAfter());
        assertEquals(Duration.ofMillis(1500), FaultSpec.parse("power-loss@2s:restart-after=1500ms").restartAfter());
        assertEquals(NodeChoice.ALL, FaultSpec.parse("power-loss@2s:node=all:restart-after=1s").node());
        assertEquals("all", NodeChoice.ALL.label());
        assertEquals(NodeChoice.node(3), FaultSpec.parse("power-loss@2s:node=3").node());
        assertEquals(NodeChoice.ANY_FOLLOWER, FaultSpec.parse("power-loss@2s:node=any-follower").node());
    }

    @Test
    void aSlowDiskHasItsDelayAndHowLongAndMayHitEveryNode() {
        FaultSpec f = FaultSpec.parse("slow-disk=50ms@10s:for=5s");
        assertEquals(FaultKind.SLOW_DISK, f.kind());
        assertEquals("slow-disk", f.kind().label());
        assertEquals(Duration.ofMillis(50), f.delay());
        assertEquals(Duration.ofSeconds(10), f.at());
        assertEquals(Duration.ofSeconds(5), f.pause());
        assertEquals(NodeChoice.LEADER, f.node());
        assertNull(f.restartAfter());
        assertEquals(NodeChoice.ALL, FaultSpec.parse("slow-disk=1s@2s:node=all:for=1m").node());
        assertEquals(Duration.ofMinutes(1), FaultSpec.parse("slow-disk=1s@2s:node=all:for=1m").pause());
        assertTrue(f.kind().onDisk() && f.kind().lasts() && !f.kind().restarts());
    }

    @Test
    void aFullDiskHasHowLongAndMayHitEveryNode() {
        FaultSpec f = FaultSpec.parse("disk-full@5s:for=2s:node=2");
        assertEquals(FaultKind.DISK_FULL, f.kind());
        assertEquals("disk-full", f.kind().label());
        assertEquals(Duration.ofSeconds(5), f.at());
        assertEquals(Duration.ofSeconds(2), f.pause());
        assertEquals(NodeChoice.node(2), f.node());
        assertNull(f.delay());
        assertNull(f.restartAfter());
        assertEquals(NodeChoice.ALL, FaultSpec.parse("disk-full@5s:node=all:for=2s").node());
        assertTrue(f.kind().onDisk() && f.kind().lasts() && !f.kind().restarts());
    }

    @Test
    void theConstructorWithoutADelayStillMakesEveryOtherKind() {
        FaultSpec f = new FaultSpec("kill@1s", FaultKind.KILL, Duration.ofSeconds(1), null, null, NodeChoice.LEADER, null);
        assertEquals(FaultSpec.parse("kill@1s:restart-after=never"), new FaultSpec("kill@1s:restart-after=never",
                FaultKind.KILL, Duration.ofSeconds(1), null, null, NodeChoice.LEADER, null));
        assertNull(f.delay());
        assertThrows(IllegalArgumentException.class, () -> new FaultSpec("slow-disk@1s", FaultKind.SLOW_DISK,
                Duration.ofSeconds(1), Duration.ofSeconds(1), null, NodeChoice.LEADER, null));
    }

    @Test
    void onlyAPowerLossNeedsForgetfulDisks() {
        assertTrue(new FaultPlan(java.util.List.of(FaultSpec.parse("kill@1s"), FaultSpec.parse("power-loss@9s")),
                Duration.ofSeconds(30)).needsForgetfulDisks());
        assertEquals(false, new FaultPlan(java.util.List.of(FaultSpec.parse("kill@1s"), FaultSpec.parse("pause=1s@2s"),
                FaultSpec.parse("restart@3s"), FaultSpec.parse("exec@4s=true")), Duration.ofSeconds(30)).needsForgetfulDisks());
    }

    /** A full disk must fail the broker's own write, as ext4 does: only a disk without the page cache does. */
    @Test
    void aFullDiskAsksForWriteThroughDisksTheOtherFaultsOfTheDiskForWriteBackOnes() {
        assertEquals(DataDisks.FORGETFUL_WRITE_THROUGH, plan("power-loss@1s", "disk-full@2s:for=1s").dataDisks());
        assertEquals(DataDisks.FORGETFUL_WRITE_THROUGH, plan("disk-full@2s:for=1s:node=all").dataDisks());
        assertEquals(DataDisks.FORGETFUL, plan("slow-disk=5ms@2s:for=1s", "power-loss@3s").dataDisks());
        assertEquals(DataDisks.FORGETFUL, plan("slow-disk=5ms@2s:for=1s").dataDisks());
        assertEquals(DataDisks.PLAIN, plan("kill@1s", "pause=1s@2s").dataDisks());
        assertTrue(plan("slow-disk=5ms@2s:for=1s").needsForgetfulDisks());
    }

    private static FaultPlan plan(String... faults) {
        return new FaultPlan(java.util.Arrays.stream(faults).map(FaultSpec::parse).toList(), Duration.ofSeconds(30));
    }

    @Test
    void execKeepsItsCommandWithoutTheQuotesAndWithWhateverItContains() {
        FaultSpec f = FaultSpec.parse("exec@30s='ssh host:22 sudo kill -STOP $(pidof kafka) @ once'");
        assertEquals(FaultKind.EXEC, f.kind());
        assertEquals(Duration.ofSeconds(30), f.at());
        assertEquals("ssh host:22 sudo kill -STOP $(pidof kafka) @ once", f.command());
        assertNull(f.node());
        // the shell took the quotes off already
        assertEquals("echo hi", FaultSpec.parse("exec@1s=echo hi").command());
        assertEquals("echo 'hi'", FaultSpec.parse("exec@1s=\"echo 'hi'\"").command());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "kill10s | no @TIME",
            "pause=2s | no @TIME",
            "kill@ | no time after @",
            "kill@-1s | the time '-1s' is not a duration (examples: 30s, 2m, 500ms, 1h)",
            "kill@10 parsecs | the time '10 parsecs' has an unknown unit 'parsecs' (use ms, s, m or h)",
            "crash@10s | unknown fault 'crash'",
            "@10s | unknown fault ''",
            "pause@10s | a pause needs its length, as in pause=2s@10s",
            "pause=@10s | a pause needs its length, as in pause=2s@10s",
            "pause=0s@10s | the pause must be longer than 0, got '0s'",
            "pause=-2s@10s | the pause '-2s' is not a duration (examples: 30s, 2m, 500ms, 1h)",
            "kill=2s@10s | kill takes no value before @",
            "kill@10s:restart-after=0s | restart-after must be longer than 0, got '0s'",
            "kill@10s:restart-after=soon | restart-after 'soon' is not a duration (examples: 30s, 2m, 500ms, 1h)",
            "pause=1s@10s:restart-after=3s | unknown option 'restart-after' for pause (options: node)",
            "kill@10s:color=red | unknown option 'color' for kill (options: node, restart-after)",
            "kill@10s:node=0 | node must be a number from 1, leader, any-follower, coordinator or ROLE-N (as bookie-2), got '0'",
            "kill@10s:node=-1 | node must be a number from 1, leader, any-follower, coordinator or ROLE-N (as bookie-2), got '-1'",
            "kill@10s:node=boss | node must be a number from 1, leader, any-follower, coordinator or ROLE-N (as bookie-2), got 'boss'",
            "kill@10s:node=bookie-0 | node must be a number from 1, leader, any-follower, coordinator or ROLE-N (as bookie-2), got 'bookie-0'",
            "kill@10s:node= | option 'node=' needs a value, as in node=2",
            "kill@10s:node | option 'node' needs a value, as in node=2",
            "kill@10s: | option '' needs a value, as in node=2",
            "kill@10s:node=1:node=2 | option 'node' given twice",
            "exec@30s | exec needs its command, as in exec@30s='ssh host sudo systemctl stop kafka'",
            "exec@30s= | exec needs its command, as in exec@30s='ssh host sudo systemctl stop kafka'",
            "exec@30s='' | exec needs its command, as in exec@30s='ssh host sudo systemctl stop kafka'",
            "exec@30s='echo hi | the command's quotes are unbalanced",
            "exec@30s=\"echo hi' | the command's quotes are unbalanced",
            "exec@30s=' | the command's quotes are unbalanced",
            "exec=1s@30s=true | exec takes no value before @",
            "kill@10s:node=all | node=all is for power-loss, slow-disk and disk-full only (every node's disk at once)",
            "pause=1s@10s:node=all | node=all is for power-loss, slow-disk and disk-full only (every node's disk at once)",
            "power-loss@10s:node=every | node must be a number from 1, leader, any-follower, coordinator, all or ROLE-N (as bookie-2), got 'every'",
            "power-loss@10s:restart-after=never | a power-loss always restarts the node, on what its disk kept; for a "
                    + "node that stays down use kill@TIME:restart-after=never",
            "power-loss@10s:restart-after=0s | restart-after must be longer than 0, got '0s'",
            "power-loss@10s:for=2s | unknown option 'for' for power-loss (options: node, restart-after)",
            "power-loss=2s@10s | power-loss takes no value before @",
            "power_loss@10s | unknown fault 'power_loss'",
            "slow-disk@10s:for=5s | a slow-disk needs its delay, as in slow-disk=50ms@10s:for=5s",
            "slow-disk=@10s:for=5s | a slow-disk needs its delay, as in slow-disk=50ms@10s:for=5s",
            "slow-disk=0ms@10s:for=5s | the slow-disk's delay must be longer than 0, got '0ms'",
            "slow-disk=slow@10s:for=5s | the slow-disk's delay 'slow' is not a duration (examples: 30s, 2m, 500ms, 1h)",
            "slow-disk=50ms@10s | a slow-disk needs :for=DURATION, how long the disk ails, as in slow-disk=50ms@10s:for=5s",
            "slow-disk=50ms@10s:node=all | a slow-disk needs :for=DURATION, how long the disk ails, as in "
                    + "slow-disk=50ms@10s:for=5s",
            "slow-disk=50ms@10s:for=0s | for must be longer than 0, got '0s'",
            "slow-disk=50ms@10s:for= | option 'for=' needs a value, as in node=2",
            "slow-disk=50ms@10s:for=1s:for=2s | option 'for' given twice",
            "slow-disk=50ms@10s:for=1s:restart-after=1s | unknown option 'restart-after' for slow-disk (options: node, for)",
            "slow-disk=50ms@10s:for=1s:node=every | node must be a number from 1, leader, any-follower, coordinator, all or ROLE-N (as bookie-2), got 'every'",
            "disk-full@10s | a disk-full needs :for=DURATION, how long the disk ails, as in disk-full@10s:for=5s",
            "disk-full=2s@10s:for=5s | disk-full takes no value before @",
            "disk-full@10s:for=soon | for 'soon' is not a duration (examples: 30s, 2m, 500ms, 1h)",
            "disk-full@10s:for=1s:color=red | unknown option 'color' for disk-full (options: node, for)",
            "pause=1s@10s:for=2s | unknown option 'for' for pause (options: node)",
    })
    void everyMalformedValueIsRefusedNamingTheValueAndTheRule(String value, String rule) {
        UserError e = assertThrows(UserError.class, () -> FaultSpec.parse(value));
        assertEquals("'" + value + "': " + rule + "; the forms are " + FaultSpec.FORMS, e.getMessage());
        assertTrue(e.getMessage().endsWith("partition=DURATION@TIME (isolate), power-loss@TIME, "
                + "slow-disk=DURATION@TIME:for=DURATION, disk-full@TIME:for=DURATION (each optionally followed by "
                + ":node=N|leader|any-follower|coordinator|ROLE-N (a node a system names, as Pulsar's "
                + "bookie-2), power-loss, slow-disk and disk-full also by :node=all; kill also by "
                + ":restart-after=DURATION|never, power-loss by :restart-after=DURATION) or exec@TIME='COMMAND'"),
                e.getMessage());
    }

    @Test
    void thePlanPutsFaultsInTimeOrderAndRefusesANonPositiveTimeout() {
        FaultPlan plan = new FaultPlan(java.util.List.of(FaultSpec.parse("kill@9s"), FaultSpec.parse("pause=1s@2s")),
                Duration.ofSeconds(30));
        assertEquals("pause=1s@2s", plan.faults().get(0).text());
        assertThrows(IllegalArgumentException.class,
                () -> new FaultPlan(java.util.List.of(), Duration.ZERO));
    }
}
