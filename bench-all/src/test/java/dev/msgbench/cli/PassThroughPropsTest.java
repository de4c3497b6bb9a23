package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.msgbench.cli.cell.CellOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Properties passed through to Kafka are checked against Kafka's own definitions before any
 * broker starts: a value Kafka refuses is one line naming the flag, key, value and rule (exit 2);
 * a key Kafka does not define is a warning, as Kafka itself only warns.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PassThroughPropsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "--producer-prop|linger.ms=abc|error: --producer-prop linger.ms=abc: not a number of type LONG (Kafka's rule for linger.ms)",
            "--producer-prop|linger.ms=-1|error: --producer-prop linger.ms=-1: value must be at least 0 (Kafka's rule for linger.ms)",
            "--producer-prop|acks=2|error: --producer-prop acks=2: string must be one of: all, -1, 0, 1 (Kafka's rule for acks)",
            "--producer-prop|compression.type=zip|error: --producer-prop compression.type=zip: string must be one of: none, gzip, snappy, lz4, zstd (Kafka's rule for compression.type)",
            "--producer-prop|enable.idempotence=maybe|error: --producer-prop enable.idempotence=maybe: expected value to be either true or false (Kafka's rule for enable.idempotence)",
            "--consumer-prop|max.poll.records=0|error: --consumer-prop max.poll.records=0: value must be at least 1 (Kafka's rule for max.poll.records)",
            "--consumer-prop|fetch.min.bytes=1KiB|error: --consumer-prop fetch.min.bytes=1KiB: not a number of type INT (Kafka's rule for fetch.min.bytes)",
            "--broker-prop|num.partitions=abc|error: --broker-prop num.partitions=abc: not a number of type INT (Kafka's rule for num.partitions)",
            "--broker-prop|log.flush.interval.messages=0|error: --broker-prop log.flush.interval.messages=0: value must be at least 1 (Kafka's rule for log.flush.interval.messages)",
    })
    void aValueKafkaRefusesIsOneLineBeforeAnyBrokerStarts(String flag, String prop, String expected) {
        ScriptedCellRunner runner = ScriptedCellRunner.failingIfRun();
        CliRun run = CliRun.with(runner, "e2e", flag, prop, "--output", dir.resolve("out").toString());

        assertEquals(2, run.exitCode, run.toString());
        assertEquals(expected + System.lineSeparator(), run.err);
    }

    @Test
    void aKeyKafkaDoesNotDefineIsAWarningAndTheRunGoesOn() {
        ScriptedCellRunner runner = new ScriptedCellRunner(cell -> new CellOutcome(ExitCode.OK, null, null));
        List<String> args = new ArrayList<>(List.of("e2e", "--producer-prop", "lingr.ms=5", "--consumer-prop",
                "my.interceptor.setting=x", "--broker-prop", "foo=1", "--output", dir.resolve("out").toString()));

        CliRun run = CliRun.with(runner, args.toArray(String[]::new));

        assertEquals(0, run.exitCode, run.toString());
        assertEquals(1, runner.calls().size());
        assertEquals(String.join(System.lineSeparator(),
                "warning: --producer-prop lingr.ms is not a Kafka producer setting; Kafka ignores it unless a plugin reads it (check the spelling)",
                "warning: --consumer-prop my.interceptor.setting is not a Kafka consumer setting; Kafka ignores it unless a plugin reads it (check the spelling)",
                "warning: --broker-prop foo is not a Kafka broker setting; Kafka ignores it unless a plugin reads it (check the spelling)")
                + System.lineSeparator(), run.err);
    }
}
