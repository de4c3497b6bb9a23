package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.TakesSeconds;

/** --fault and --fault-timeout through the real command line; no broker is started. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FaultCommandLineTest {

    private static final String HELP = " (see java -jar bench-all.jar e2e --help)";
    /** FaultSpec.FORMS as the command line shows it: with the flag that makes partitions possible. */
    private static final String FORMS = "pause=DURATION@TIME, kill@TIME, restart@TIME, partition=DURATION@TIME "
            + "(--isolate), power-loss@TIME, slow-disk=DURATION@TIME:for=DURATION, disk-full@TIME:for=DURATION (each "
            + "optionally followed by :node=N|leader|any-follower|coordinator|ROLE-N (a node a system names, as Pulsar's "
            + "bookie-2), power-loss, slow-disk and disk-full also by "
            + ":node=all; kill also by :restart-after=DURATION|never, power-loss by :restart-after=DURATION) or "
            + "exec@TIME='COMMAND'";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '#', quoteCharacter = '`', value = {
            "--fault kill10s#error: --fault 'kill10s': no @TIME; the forms are " + FORMS,
            "--fault pause=0s@1s#error: --fault 'pause=0s@1s': the pause must be longer than 0, got '0s'; the forms are "
                    + FORMS,
            "--fault kill@1s:node=0#error: --fault 'kill@1s:node=0': node must be a number from 1, leader, "
                    + "any-follower, coordinator or ROLE-N (as bookie-2), got '0'; the forms are " + FORMS,
            "--fault kill@1s:node=3#error: --fault 'kill@1s:node=3': node 3 does not exist with --brokers 1",
            "--brokers 3 --fault kill@1s:node=bookie-1#error: --fault 'kill@1s:node=bookie-1': node=bookie-1: nats "
                    + "numbers its nodes only: node=N, leader or any-follower",
            "--fault pause=1s@10s#error: --fault 'pause=1s@10s': at 10s, not inside the measured 10s (--duration); "
                    + "times count from the end of the warm-up",
            "--url nats://127.0.0.1:1 --fault pause=1s@2s#error: --fault 'pause=1s@2s': pause acts on a broker the "
                    + "suite starts, not on one given with --url; use exec@TIME='COMMAND' to run a command that acts on yours",
            "--url nats://127.0.0.1:1 --fault kill@2s:node=leader#error: --fault 'kill@2s:node=leader': kill acts on a "
                    + "broker the suite starts, not on one given with --url; use exec@TIME='COMMAND' to run a command "
                    + "that acts on yours",
            "--fault-timeout 0s --fault pause=1s@2s#error: --fault-timeout must be longer than 0, got 0s",
            "--fault-timeout soon#error: Invalid value for option '--fault-timeout': 'soon' is not a duration "
                    + "(examples: 30s, 2m, 500ms, 1h)",
    })
    void aBadFaultIsOneLineNamingTheFlagAndExitsWithTwo(String args, String expected) {
        CliRun run = CliRun.of(("e2e --system nats " + args + " --output " + dir.resolve("out")).split(" "));
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(expected + HELP + System.lineSeparator(), run.err, run.toString());
        assertTrue(Files.notExists(dir.resolve("out")), "nothing is written for bad input");
    }

    /** A power cut takes only what a node keeps on disk: where it keeps no message there, it is refused before any broker starts. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '#', quoteCharacter = '`', value = {
            "e2e --system nats --fault power-loss@2s#error: --fault 'power-loss@2s': power-loss acts on a node's disk, and "
                    + "nats keeps no message there: core NATS holds a message in memory only, until it is delivered; use "
                    + "kill@TIME, or --system jetstream",
            "e2e --system jetstream --js-storage memory --fault power-loss@2s#error: --fault 'power-loss@2s': power-loss "
                    + "acts on a node's disk, and jetstream keeps no message there: a memory stream (--js-storage memory) "
                    + "is never written to disk; use --js-storage file",
            "e2e --system rabbitmq --fault power-loss@2s#error: --fault 'power-loss@2s': power-loss acts on a node's "
                    + "disk, and rabbitmq keeps no message there: a transient queue (--queue-type transient, the default "
                    + "on one node) holds transient messages in memory; use --queue-type durable or quorum",
            "e2e --system rabbitmq --brokers 3 --queue-type transient --fault power-loss@2s:node=all#error: --fault "
                    + "'power-loss@2s:node=all': power-loss acts on a node's disk, and rabbitmq keeps no message there: a "
                    + "transient queue (--queue-type transient, the default on one node) holds transient messages in "
                    + "memory; use --queue-type durable or quorum",
            "e2e --system redis --broker-prop appendonly=yes --fault power-loss@2s#error: --fault 'power-loss@2s': "
                    + "power-loss acts on a node's disk, and redis keeps no message there: a pub/sub message is never "
                    + "written to the AOF or a snapshot, whatever the persistence; use --system redis-streams with "
                    + "--broker-prop appendonly=yes",
            "e2e --system redis-streams --fault power-loss@2s#error: --fault 'power-loss@2s': power-loss acts on a "
                    + "node's disk, and redis-streams keeps no message there: the local redis-server runs without "
                    + "persistence (save '' and appendonly no) unless asked; add --broker-prop appendonly=yes (appendfsync "
                    + "everysec, Redis's default, or --broker-prop appendfsync=always)",
            "e2e --system redis-streams --broker-prop appendonly=no --broker-prop appendfsync=always --fault "
                    + "power-loss@2s#error: --fault 'power-loss@2s': power-loss acts on a node's disk, and redis-streams "
                    + "keeps no message there: the local redis-server runs without persistence (save '' and appendonly no) "
                    + "unless asked; add --broker-prop appendonly=yes (appendfsync everysec, Redis's default, or "
                    + "--broker-prop appendfsync=always)",
            "e2e --system kafka --url 127.0.0.1:1 --fault power-loss@2s#error: --fault 'power-loss@2s': power-loss acts "
                    + "on a broker the suite starts, not on one given with --url; use exec@TIME='COMMAND' to run a command "
                    + "that acts on yours",
            "throughput --system loopback --fault power-loss@2s#error: --fault 'power-loss@2s': loopback runs inside this "
                    + "JVM, there is no broker to power-loss; use exec@TIME='COMMAND' for a command of your own",
            "e2e --system kafka --brokers 3 --fault power-loss@2s:node=4#error: --fault 'power-loss@2s:node=4': node 4 "
                    + "does not exist with --brokers 3",
            "e2e --system kafka --fault kill@2s:node=all#error: --fault 'kill@2s:node=all': node=all is for power-loss, "
                    + "slow-disk and disk-full only (every node's disk at once); the forms are " + FORMS,
            "e2e --system nats --fault slow-disk=50ms@2s:for=3s#error: --fault 'slow-disk=50ms@2s:for=3s': slow-disk "
                    + "acts on a node's disk, and nats keeps no message there: core NATS holds a message in memory only, "
                    + "until it is delivered; use kill@TIME, or --system jetstream",
            "e2e --system rabbitmq --fault disk-full@2s:for=3s#error: --fault 'disk-full@2s:for=3s': disk-full acts on "
                    + "a node's disk, and rabbitmq keeps no message there: a transient queue (--queue-type transient, the "
                    + "default on one node) holds transient messages in memory; use --queue-type durable or quorum",
            "e2e --system redis --broker-prop appendonly=yes --fault disk-full@2s:for=3s:node=all#error: --fault "
                    + "'disk-full@2s:for=3s:node=all': disk-full acts on a node's disk, and redis keeps no message there: "
                    + "a pub/sub message is never written to the AOF or a snapshot, whatever the persistence; use "
                    + "--system redis-streams with --broker-prop appendonly=yes",
            "e2e --system jetstream --js-storage memory --fault slow-disk=10ms@2s:for=1s#error: --fault "
                    + "'slow-disk=10ms@2s:for=1s': slow-disk acts on a node's disk, and jetstream keeps no message there: "
                    + "a memory stream (--js-storage memory) is never written to disk; use --js-storage file",
            "e2e --system kafka --url 127.0.0.1:1 --fault disk-full@2s:for=1s#error: --fault 'disk-full@2s:for=1s': "
                    + "disk-full acts on a broker the suite starts, not on one given with --url; use exec@TIME='COMMAND' "
                    + "to run a command that acts on yours",
            "throughput --system loopback --fault slow-disk=1ms@2s:for=1s#error: --fault 'slow-disk=1ms@2s:for=1s': "
                    + "loopback runs inside this JVM, there is no broker to slow-disk; use exec@TIME='COMMAND' for a "
                    + "command of your own",
            "e2e --system kafka --fault slow-disk=50ms@2s#error: --fault 'slow-disk=50ms@2s': a slow-disk needs "
                    + ":for=DURATION, how long the disk ails, as in slow-disk=50ms@10s:for=5s; the forms are " + FORMS,
            "e2e --system kafka --url 127.0.0.1:1 --forgetful-disks#error: --forgetful-disks puts a local broker's nodes "
                    + "on disks that can lose power; with --url the suite starts no broker",
            "throughput --system loopback --forgetful-disks#error: --forgetful-disks puts a local broker's nodes on "
                    + "disks that can lose power; loopback runs inside this JVM without a broker",
    })
    void aPowerLossWhereNoMessageIsOnDiskIsOneLineAndExitsWithTwoBeforeAnyBrokerStarts(String args, String expected) {
        CliRun run = CliRun.of((args + " --output " + dir.resolve("out")).split(" "));
        assertEquals(2, run.exitCode, run.toString());
        String command = args.substring(0, args.indexOf(' '));
        assertEquals(expected + " (see java -jar bench-all.jar " + command + " --help)" + System.lineSeparator(), run.err,
                run.toString());
        assertTrue(Files.notExists(dir.resolve("out")), "nothing is written for bad input");
    }

    /** Where messages live on disk, a power loss passes every check (a workload file's dry run starts nothing). */
    @Test
    void aPowerLossIsTakenWhereMessagesLiveOnDisk() throws Exception {
        Path file = dir.resolve("power.yaml");
        Files.writeString(file, """
                name: power
                command: e2e
                defaults: {duration: 20s, fault: "power-loss@5s:restart-after=2s"}
                cells:
                  - {label: kafka, system: kafka, brokers: 3, fault: "power-loss@5s:node=all"}
                  - {label: jetstream, system: jetstream}
                  - {label: durable, system: rabbitmq, queue-type: durable}
                  - {label: quorum, system: rabbitmq, brokers: 3}
                  - {label: aof, system: redis-streams, broker-prop: {appendonly: "yes"}}
                  - {label: rdb, system: redis-streams, broker-prop: {SAVE: "60 1"}}
                  - {label: slow, system: kafka, fault: "slow-disk=50ms@5s:for=5s:node=all"}
                  - {label: full, system: rabbitmq, queue-type: durable, fault: "disk-full@5s:for=5s"}
                """);
        CliRun run = CliRun.of("run", file.toString(), "--dry-run");
        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("--fault power-loss@5s:node=all"), run.out);
        assertTrue(run.out.contains("--fault slow-disk=50ms@5s:for=5s:node=all"), run.out);
        assertTrue(run.out.contains("--fault disk-full@5s:for=5s"), run.out);
    }

    @Test
    void aSystemInsideThisJvmHasNoBrokerToPause() {
        CliRun run = CliRun.of("throughput", "--system", "loopback", "--fault", "restart@1s");
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --fault 'restart@1s': loopback runs inside this JVM, there is no broker to restart; "
                + "use exec@TIME='COMMAND' for a command of your own (see java -jar bench-all.jar throughput --help)"
                + System.lineSeparator(), run.err);
    }

    @Test
    void helpTeachesFaultsWithExamples() {
        String help = CliRun.of("e2e", "--help").out.replaceAll("\\s+", " ");
        assertTrue(help.contains("--fault=FAULT A fault at a time from the start of the measured window (repeatable): "
                + "pause=2s@10s"), help);
        assertTrue(help.contains("e2e --system nats --rate 1000 --duration 20s --fault pause=2s@5s"), help);
        assertTrue(help.contains("--fault exec@10s='ssh db1 sudo systemctl restart nats'"), help);
        assertTrue(CliRun.of("throughput", "--help").out.contains("--fault-timeout=TIME"));
    }

    @Test
    @TakesSeconds
    void anExecFaultRunsTheUsersCommandAndItsExitStatusAndOutputAreKept() throws Exception {
        Path out = dir.resolve("exec");
        CliRun run = CliRun.of("e2e", "--system", "loopback", "--rate", "1000", "--duration", "2s", "--warmup", "500ms",
                "--fault", "exec@1s='echo hi; exit 3'", "--fault", "exec@1500ms=true", "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode faults = ResultFiles.json().readTree(out.resolve("result.json").toFile()).get("faults");
        assertEquals(2, faults.size(), faults.toString());
        JsonNode first = faults.get(0).get("event");
        assertEquals("exec@1s='echo hi; exit 3'", first.get("fault").asText());
        assertEquals("exec", first.get("kind").asText());
        assertEquals(3, first.get("exitStatus").asInt());
        assertEquals("hi\n", first.get("output").asText());
        assertEquals("done", first.get("outcome").asText());
        assertTrue(first.get("askedAtSeconds").asDouble() >= 1.0, first.toString());
        assertEquals(0, faults.get(1).get("event").get("exitStatus").asInt());
        assertTrue(Files.readString(out.resolve("latency.hlog")).contains("#[fault exec asked 1."), "timeline comment");
        assertTrue(run.out.contains("  fault exec@1s='echo hi; exit 3': asked 1."), run.out);
        assertTrue(run.out.contains(", exit status 3;  no delivery for "), run.out);
    }

    @Test
    void aWorkloadCellTakesFaultsAndRefusesABadOneAtItsLine() throws Exception {
        Path file = dir.resolve("w.yaml");
        Files.writeString(file, """
                name: faults
                command: e2e
                defaults: {system: nats, duration: 20s}
                cells:
                  - {label: paused, fault: [pause=2s@5s, "exec@8s='true'"]}
                  - {label: timed, fault: kill@30s, fault-timeout: 10s}
                """);
        CliRun run = CliRun.of("run", file.toString(), "--dry-run");
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + file + ":6: --fault 'kill@30s': at 30s, not inside the measured 20s (--duration); "
                + "times count from the end of the warm-up (cell 2: timed)" + System.lineSeparator(), run.err);

        Files.writeString(file, Files.readString(file).replace("kill@30s", "kill@15s"));
        CliRun ok = CliRun.of("run", file.toString(), "--dry-run");
        assertEquals(0, ok.exitCode, ok.toString());
    }
}
