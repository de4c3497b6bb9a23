package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mistake in a workload file is one line naming the file, the line, the key and the value,
 * exit code 2, and nothing runs: every cell is checked before the first starts.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkloadFileErrorsTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    @Test
    void anUnknownFlagNamesItsLineTheNearestFlagAndEveryFlagOfTheCommand() throws IOException {
        CliRun run = dryRun("""
                name: typo
                defaults:
                  rate: 100
                cells:
                  - {label: small, sise: 256B}
                """);
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("error: " + file() + ":5: unknown key 'sise' (did you mean 'size'? flags of e2e: "
                + "system, url, bootstrap-servers, acks, brokers, broker-prop, forgetful-disks, secure, ca, client-cert, "
                + "client-key, user, password-file, password-env, broker-cpus, cpus, rate, duration, warmup, arrival, "
                + "rate-schedule, "
                + "size, "), run.err);
        assertTrue(run.err.contains(", partitions, replication-factor, producer-prop, "), run.err);
        assertEquals(1, run.err.lines().count(), run.err);
        assertEquals("", run.out);
    }

    @Test
    void anUnknownTopLevelKeyListsTheKeysOfBothFormats() throws IOException {
        CliRun run = dryRun("""
                name: x
                repetition: 3
                """);
        assertEquals("error: " + file() + ":2: unknown key 'repetition' (keys of a workload file: name, source, "
                + "description, command, repetitions, repeats, baseline, defaults, matrix, cells, per-system, table; or the keys of an "
                + "OpenMessaging Benchmark workload: name, topics, partitionsPerTopic, messageSize, producersPerTopic, "
                + "producerRate, consumerPerSubscription, subscriptionsPerTopic, testDurationMinutes, "
                + "warmupDurationMinutes, keyDistributor, payloadFile, consumerBacklogSizeGB, useRandomizedPayloads, "
                + "randomBytesRatio, randomizedPayloadPoolSize, backlogDrainRatio, messageProcessingDelayMs, "
                + "producerStartRate, producerIncrementRate, producerIncrementSeconds, acceptableBacklog, "
                + "producerPauseDuringDrain, messageRateReceivedForSubscription, ensureTopicsAreReady)" + NL, run.err);
        assertEquals(2, run.exitCode);
    }

    @Test
    void aWordWhereANumberBelongsIsRefusedWithItsLine() throws IOException {
        CliRun run = dryRun("""
                name: x
                defaults:
                  duration: 2s

                  rate: fast
                """);
        assertEquals("error: " + file() + ":5: 'rate' must be a number, got 'fast'" + NL, run.err);
        assertEquals(2, run.exitCode);
    }

    @Test
    void aMapWhereAMapFlagBelongsAndViceVersa() throws IOException {
        assertEquals("error: " + file() + ":2: 'broker-prop' must be a map of KEY: VALUE, got a list" + NL,
                dryRun("defaults:\n  broker-prop: [a, b]\n").err);
        assertEquals("error: " + file() + ":2: 'size' must be a single value, got a map" + NL,
                dryRun("defaults:\n  size: {a: 1}\n").err);
        assertEquals("error: " + file() + ":2: 'quiet' must be true or false, got 'loud'" + NL,
                dryRun("defaults:\n  quiet: loud\n").err);
        assertEquals("error: " + file() + ":2: 'rate' has no value" + NL, dryRun("defaults:\n  rate:\n").err);
    }

    @Test
    void aValueTheCommandRefusesIsReportedAtTheLineThatSetIt() throws IOException {
        CliRun run = dryRun("""
                name: x
                defaults: {rate: 100}
                matrix:
                  size: [1KiB,
                         12XB]
                """);
        assertEquals("error: " + file() + ":5: Invalid value for option '--size': '12XB' has an unknown unit 'XB' "
                + "(use B, KB, KiB, MB, MiB, GB or GiB) (cell 2: size=12XB)" + NL, run.err);
        assertEquals(2, run.exitCode);
    }

    /** The same refusal on the command line names --acks (LoopbackEndToEndTest). */
    @Test
    void aRefusalOfTheEngineNamesTheSettingAsTheFileWritesItAtItsLine() throws IOException {
        assertEquals("error: " + file() + ":4: 'acks': the loopback system has no broker to acknowledge anything; "
                        + "omit 'acks' (cell 1: loopback rate=10 acks=1)" + NL,
                dryRun("cells:\n  - system: loopback\n    rate: 10\n    acks: 1\n").err);
    }

    @Test
    void theCommandsOwnChecksRunBeforeAnythingStartsAndPointAtTheLine() throws IOException {
        assertEquals("error: " + file() + ":3: --rate must be a positive number of messages per second, got -5 "
                        + "(cell 1: rate=-5)" + NL,
                dryRun("matrix:\n  rate:\n    - -5\n").err);
        assertEquals("error: " + file() + ":4: Invalid value for option '--acks': must be 0, 1 or all, got '2' "
                + "(cell 1: kafka rate=10 acks=2)" + NL,
                dryRun("cells:\n  - system: kafka\n    rate: 10\n    acks: 2\n").err);
        assertEquals("error: " + file() + ":2: --js-storage applies to --system jetstream only, not nats (cell 1: nats js-storage=memory)" + NL,
                dryRun("cells:\n  - {system: nats, js-storage: memory}\n").err);
    }

    @Test
    void aKeyGivenTwiceIsAnErrorNotLastOneWins() throws IOException {
        assertEquals("error: " + file() + ":3: key 'rate' is given twice (first at line 2)" + NL,
                dryRun("defaults:\n  rate: 10\n  rate: 20\n").err);
    }

    @Test
    void aFlagSetByTwoAxesOfOneCellIsAmbiguous() throws IOException {
        assertEquals("error: " + file() + ":4: 'size' is also set at " + file() + ":2 for the same cell; set it in one place" + NL,
                dryRun("matrix:\n  size: [1KiB]\ncells:\n  - {size: 256B}\n").err);
    }

    @Test
    void outputBelongsToTheRunCommand() throws IOException {
        assertEquals("error: " + file() + ":2: 'output' cannot be set in a workload file: each cell writes to "
                + "OUTPUT/<nn>-<label>; give run --output instead" + NL, dryRun("defaults:\n  output: /tmp/x\n").err);
    }

    @Test
    void unknownSystemsColumnsAndCommandsAreNamed() throws IOException {
        assertEquals("error: " + file() + ":2: unknown system 'natz' in per-system (systems: kafka, nats, jetstream, "
                + "rabbitmq, rabbitmq-streams, redis, redis-streams, pulsar, mqtt, loopback)" + NL, dryRun("per-system:\n  natz: {rate: 5}\n").err);
        assertTrue(dryRun("table:\n  columns: [p99, p42]\n").err.startsWith("error: " + file()
                + ":2: unknown column 'p42' (columns: p50, p75, p90, p99, p99.9, "), "columns");
        assertEquals("error: " + file() + ":1: 'command' must be one of e2e, throughput, got 'bench'" + NL,
                dryRun("command: bench\n").err);
        assertEquals("error: " + file() + ":2: 'repetitions' must be a whole number, got 'twice'" + NL,
                dryRun("name: x\nrepetitions: twice\n").err);
    }

    @Test
    void aMatrixEntryThatIsNeitherAFlagNorANamedAxisIsATypo() throws IOException {
        CliRun run = dryRun("matrix:\n  sytem: [nats, kafka]\n");
        assertTrue(run.err.startsWith("error: " + file() + ":2: unknown key 'sytem' (did you mean 'system'? "), run.err);
        assertTrue(run.err.endsWith("; a matrix entry that is not a flag is a named axis, a list of maps of flags like cells" + NL));
    }

    @Test
    void brokenYamlIsReportedWithItsLine() throws IOException {
        CliRun run = dryRun("name: x\ndefaults: {rate: 5\n");
        assertEquals(2, run.exitCode);
        assertTrue(run.err.startsWith("error: " + file() + ":3: not valid YAML: "), run.err);
        assertEquals(1, run.err.lines().count());
    }

    @Test
    void aMissingFileAndAnEmptyOneAreOneLine() throws IOException {
        assertEquals("error: " + dir.resolve("none.yaml") + ": no such file" + NL,
                CliRun.of("run", dir.resolve("none.yaml").toString()).err);
        assertEquals("error: " + file() + ": the file is empty; see workloads/README.md for what a workload file holds" + NL,
                dryRun("# nothing\n").err);
    }

    @Test
    void badRunFlagsAreRefused() throws IOException {
        write("defaults: {rate: 5}\n");
        assertEquals("error: --scale must be a number above 0, got 0.0 (see java -jar bench-all.jar run --help)" + NL,
                CliRun.of("run", file(), "--scale", "0").err);
        assertEquals("error: --only nothing matches no cell of " + file() + " (cells: w) (see java -jar bench-all.jar "
                + "run --help)" + NL, CliRun.of("run", file(), "--only", "nothing").err);
        assertEquals("error: --system applies to OpenMessaging Benchmark files; " + file() + " names its own systems "
                + "(pick cells with --only, or give --set system=nats) (see java -jar bench-all.jar run --help)" + NL,
                CliRun.of("run", file(), "--system", "nats").err);
        String set = CliRun.of("run", file(), "--set", "sise=1KiB", "--dry-run").err;
        assertTrue(set.startsWith("error: --set sise=1KiB: unknown key 'sise' (did you mean 'size'? "), set);
    }

    @Test
    void helpTeachesRunAndSweep() {
        CliRun run = CliRun.of("run", "--help");
        for (String flag : new String[] {"FILE", "--scale", "--repetitions", "--only", "--set", "--system", "--output",
                "--dry-run", "--quiet"}) {
            assertTrue(run.out.contains(flag), flag + " missing from run --help");
        }
        CliRun sweep = CliRun.of("sweep", "--help");
        for (String flag : new String[] {"--system", "--objective", "--start-rate", "--step", "--max-rate", "--output",
                "every e2e flag"}) {
            assertTrue(sweep.out.contains(flag), flag + " missing from sweep --help");
        }
        assertTrue(CliRun.of("--help").out.contains("run workloads/e3-message-queue-latency.yaml --scale 0.1"));
    }

    @Test
    void hostileFilesAreRefusedInOneLineWithoutRunningAnything() throws IOException {
        assertOneLineError("the file is empty; see workloads/README.md for what a workload file holds", "");
        assertOneLineError("not valid YAML: Nesting Depth exceeded max 50", "a: " + "[".repeat(5000) + "]".repeat(5000));
        StringBuilder aliases = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for (char c = 'b'; c <= 'h'; c++) {
            String previous = "*" + (char) (c - 1);
            aliases.append(c).append(": &").append(c).append(" [").append(String.join(", ", java.util.Collections.nCopies(9, previous)))
                    .append("]\n");
        }
        assertOneLineError("not valid YAML: Number of aliases for non-scalar nodes exceeds the specified max=50", aliases.toString());
        assertOneLineError("5,800,018 bytes is too large for a workload file (at most 1,048,576); a workload file "
                + "describes runs, it holds no data", "name: huge\ncells:\n" + "  - {system: nats, rate: 10}\n".repeat(200_000));
        // one long value, which the YAML parser would take minutes over
        assertOneLineError("31,457,286 bytes is too large for a workload file (at most 1,048,576); a workload file "
                + "describes runs, it holds no data", "name: " + "x".repeat(30 << 20));
    }

    @Test
    void aBinaryFileIsRefusedAsNotText() throws IOException {
        byte[] bytes = new byte[256];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (255 - i);
        }
        Files.write(dir.resolve("w.yaml"), bytes);
        CliRun run = CliRun.of("run", file(), "--dry-run");
        assertEquals("error: " + file() + ": not a text file (UTF-8 expected); a workload file is YAML" + NL, run.err);
        assertEquals(2, run.exitCode);
    }

    private void assertOneLineError(String expected, String yaml) throws IOException {
        CliRun run = dryRun(yaml);
        assertEquals("error: " + file() + ": " + expected + NL, run.err);
        assertEquals(2, run.exitCode);
        assertEquals("", run.out);
    }

    private CliRun dryRun(String yaml) throws IOException {
        write(yaml);
        return CliRun.of("run", file(), "--dry-run");
    }

    private void write(String yaml) throws IOException {
        Files.writeString(dir.resolve("w.yaml"), yaml);
    }

    private String file() {
        return dir.resolve("w.yaml").toString();
    }
}
