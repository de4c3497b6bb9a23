package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Kafka's share group flags given where they cannot apply: one line naming the flag, exit code 2,
 * refused before any broker starts.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KafkaShareCommandLineTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--system kafka --kafka-consumer queue|error: Invalid value for option '--kafka-consumer': expected one of [GROUP, SHARE] (case-insensitive) but was 'queue' (see java -jar bench-all.jar e2e --help)",
            "--system kafka --share-release-every 10|error: --share-release-every applies to --kafka-consumer share only, not group; add --kafka-consumer share",
            "--system kafka --kafka-consumer share --share-release-every -1|error: --share-release-every must be 0 (never) or more, got -1",
            "--system kafka --kafka-consumer share --commit sync|error: --commit applies to --kafka-consumer group only: a share consumer acknowledges each record instead, got --commit sync",
            "--system kafka --kafka-consumer share --transactions 100|error: --transactions applies to --kafka-consumer group only: a share group's isolation is a group setting (share.isolation.level) the suite does not set; give --kafka-consumer group",
            "--system kafka --kafka-consumer share --isolation-level read_committed|error: --isolation-level applies to --kafka-consumer group only: a share group's isolation is a group setting (share.isolation.level) the suite does not set; give --kafka-consumer group",
            "--system kafka --kafka-consumer share --commit auto|error: --commit applies to --kafka-consumer group only: a share consumer acknowledges each record instead, got --commit auto",
            "--system kafka --kafka-consumer share --consumer-prop auto.offset.reset=latest|error: --consumer-prop auto.offset.reset applies to --kafka-consumer group only: a share consumer refuses it (its group starts at the earliest offset of the run's topic, and the broker assigns partitions)",
            "--system kafka --kafka-consumer share --consumer-prop partition.assignment.strategy=x|error: --consumer-prop partition.assignment.strategy applies to --kafka-consumer group only: a share consumer refuses it (its group starts at the earliest offset of the run's topic, and the broker assigns partitions)",
            "--system kafka --kafka-consumer share --consumer-prop share.acknowledgement.mode=implicit|error: --consumer-prop share.acknowledgement.mode is the suite's with --kafka-consumer share: each record is acknowledged explicitly (ACCEPT, or RELEASE with --share-release-every); remove it",
            "--system rabbitmq --kafka-consumer share|error: --kafka-consumer applies to --system kafka only, not rabbitmq (see java -jar bench-all.jar e2e --help)",
            "--system rabbitmq --share-release-every 5|error: --share-release-every applies to --system kafka only, not rabbitmq (see java -jar bench-all.jar e2e --help)",
    })
    void aShareGroupFlagWhereItCannotApplyIsOneLineAndExitsWithTwo(String args, String expected) {
        CliRun run = CliRun.of(args("e2e " + args + " --output " + dir.resolve("out")));
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(expected + System.lineSeparator(), run.err, run.toString());
        assertEquals("", run.out);
        assertTrue(Files.notExists(dir.resolve("out").resolve("broker-logs")), "no broker was started");
    }

    private static String[] args(String line) {
        return line.split(" ");
    }
}
