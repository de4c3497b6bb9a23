package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.msgbench.cli.cell.CellOutcome;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every numeric flag of e2e and throughput at 0, negative, huge and not a number: one line
 * naming the flag, the rule and the value, exit 2, and nothing started. A value no run can carry
 * out (a rate no scheduler keeps, a time that overflows the clock) is refused the same way
 * rather than left to hang.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NumericFlagsTest {

    private static final String HUGE = "99999999999999999999";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "e2e|--rate 0|--rate must be a positive number of messages per second, got 0",
            "e2e|--rate -1|--rate must be a positive number of messages per second, got -1",
            "e2e|--rate abc|Invalid value for option '--rate': 'abc' is not a double",
            "e2e|--rate NaN|--rate must be a positive number of messages per second, got NaN",
            "e2e|--rate Infinity|--rate must be a positive number of messages per second, got Infinity",
            "e2e|--rate 1e12|--rate cannot be scheduled: at most 10,000,000 msg/s per producer (one send every 100 ns), got 1000000000000 for 1 producer; lower --rate or add --producers",
            "e2e|--rate " + HUGE + "|--rate cannot be scheduled: at most 10,000,000 msg/s per producer (one send every 100 ns), got 1.0E20 for 1 producer; lower --rate or add --producers",
            "e2e|--rate 30000001 --producers 3|--rate cannot be scheduled: at most 10,000,000 msg/s per producer (one send every 100 ns), got 30000001 for 3 producers; lower --rate or add --producers",
            "e2e|--rate 0.01 --duration 1s --warmup 0s|--rate 0.01 for 1000 ms gives each of the 1 producers less than one message; raise --rate or --duration",
            "e2e|--duration 0|--duration must be longer than 0, got 0 ms",
            "e2e|--duration -1|Invalid value for option '--duration': '-1' is not a duration (examples: 30s, 2m, 500ms, 1h)",
            "e2e|--duration " + HUGE + "|--duration must be at most 30 days, got " + HUGE,
            "e2e|--duration 2147483647|--duration must be at most 30 days, got 2147483647",
            "e2e|--duration 9999999h|--duration must be at most 30 days, got 9999999h",
            "e2e|--warmup -1|Invalid value for option '--warmup': '-1' is not a duration (examples: 30s, 2m, 500ms, 1h)",
            "e2e|--warmup " + HUGE + "|--warmup must be at most 30 days, got " + HUGE,
            "e2e|--warmup 400h --duration 400h|--warmup plus --duration must be at most 30 days, got 400h + 400h",
            "e2e|--size 0|--size must be at least 32 B (the message header), got 0 B",
            "e2e|--size -1|Invalid value for option '--size': '-1' is not a size (examples: 100, 256B, 1KiB, 1MiB)",
            "e2e|--size " + HUGE + "|Invalid value for option '--size': '" + HUGE + "' is not a whole number of bytes",
            "e2e|--size 2147483647|--size must be at most 64MiB, got 2147483647 B",
            "e2e|--producers 0|--producers must be at least 1, got 0",
            "e2e|--producers -1|--producers must be at least 1, got -1",
            "e2e|--producers 2147483647|--producers must be at most 10,000,000, got 2,147,483,647",
            "e2e|--producers 10000001|--producers must be at most 10,000,000, got 10,000,001",
            "e2e|--producer-threads 0|--producer-threads must be from 1 to 1 (at most 1,000, each is a thread and a connection, and at most --producers), got 0",
            "e2e|--producers 4 --producer-threads 5|--producer-threads must be from 1 to 4 (at most 1,000, each is a thread and a connection, and at most --producers), got 5",
            "e2e|--producers 2000 --producer-threads 1001|--producer-threads must be from 1 to 1,000 (at most 1,000, each is a thread and a connection, and at most --producers), got 1,001",
            "e2e|--consumers 2000 --consumer-connections 1001|--consumer-connections must be from 1 to 1,000 (at most 1,000, each is a connection, and at most the 2,000 consumers), got 1,001",
            "e2e|--producers 3 --topics 3 --consumers 2 --consumer-connections 3|--consumer-connections must be a multiple of 2 (--consumers x --subscriptions-per-topic: a connection serves one consumer of each subscription of the topics it reads), got 3",
            "e2e|--producers 2 --topics 2 --consumers 1001|--consumers x --subscriptions-per-topic must be at most 1,000 for consumers to share connections (each connection serves one consumer of each subscription of a topic), got 1,001",
            "e2e|--producers 5000 --topics 5000 --consumers 2001|--consumers x --topics x --subscriptions-per-topic must be at most 10,000,000, got 10,005,000",
            "e2e|--producers 2 --producer-threads 1 --workers 2|--workers gives every producer and consumer a thread or connection of its own, and this run shares them (--producer-threads 1 for 2 producers, --consumer-connections 1 for 1 consumers); give at most 1,000 of each without --producer-threads and --consumer-connections, or leave --workers out",
            "throughput|--producers 2000|--producers 2,000: beyond 1,000 producers share threads, which only a schedule allows (e2e); a throughput run has a thread per producer, at most 1,000",
            "throughput|--producers 4 --producer-threads 2|--producer-threads 2: producer streams share threads only on a schedule (e2e); a throughput run has a thread per producer (give --producer-threads 4 or leave it out)",
            "e2e|--producers " + HUGE + "|Invalid value for option '--producers': '" + HUGE + "' is not an int",
            "e2e|--producers abc|Invalid value for option '--producers': 'abc' is not an int",
            "e2e|--topics 4|--topics 4: every topic needs a producer stream of its own; give --producers 4 or more, or fewer topics (got 1)",
            "throughput|--topics 2 --producers 1|--topics 2: every topic needs a producer stream of its own; give --producers 2 or more, or fewer topics (got 1)",
            "e2e|--consumers 0|--consumers must be at least 1, got 0",
            "e2e|--consumers 2147483647|--consumers must be at most 10,000,000, got 2,147,483,647",
            "e2e|--connections 0|--connections must be at least 1, got 0",
            "e2e|--connections 1001|--connections must be at most 1000 (each is a thread and a connection), got 1001",
            "e2e|--seed " + HUGE + "|Invalid value for option '--seed': '" + HUGE + "' is not a long",
            "e2e|--seed abc|Invalid value for option '--seed': 'abc' is not a long",
            "e2e|--drain-timeout -1|Invalid value for option '--drain-timeout': '-1' is not a duration (examples: 30s, 2m, 500ms, 1h)",
            "e2e|--drain-timeout " + HUGE + "|--drain-timeout must be at most 30 days, got " + HUGE,
            "e2e|--spin-window 2s|--spin-window must be at most 1 s, got 2s",
            "e2e|--spin-window abc|Invalid value for option '--spin-window': 'abc' is not a duration (examples: 30s, 2m, 500ms, 1h) and not auto",
            "e2e|--brokers 0|--brokers must be at least 1, got 0",
            "e2e|--brokers 2147483647|--brokers must be at most 9 (nodes of a local cluster, all on this machine), got 2147483647",
            "e2e|--brokers abc|Invalid value for option '--brokers': 'abc' is not an int",
            "e2e|--partitions 0|--partitions must be 1 to 10000, got 0",
            "e2e|--partitions 2147483647|--partitions must be 1 to 10000, got 2147483647",
            "e2e|--replication-factor 0|--replication-factor must be at least 1, got 0",
            "e2e|--replication-factor " + HUGE + "|Invalid value for option '--replication-factor': '" + HUGE + "' is not an int",
            "e2e|--poll-timeout 2147483647|--poll-timeout must be at most 60 s (a longer poll only delays the end of the run), got 2147483647 s",
            "e2e|--system jetstream --js-replicas 0|--js-replicas must be 1 to 5 (JetStream's limit), got 0",
            "e2e|--system jetstream --js-max-pending -1|--js-max-pending must be at least 1, got -1",
            "e2e|--system rabbitmq --acks 1 --max-unconfirmed 0|--max-unconfirmed must be at least 1, got 0",
            "e2e|--system rabbitmq --prefetch 2147483647|--prefetch must be 1 to 65535 (RabbitMQ's basic.qos limit), got 2147483647",
            "e2e|--system redis-streams --maxlen 0|--maxlen must be at least 1, got 0",
            "e2e|--system redis-streams --xread-count -1|--xread-count must be at least 1, got -1",
            "e2e|--fault-timeout 0|--fault-timeout must be longer than 0, got 0s",
            "e2e|--fault-timeout " + HUGE + "|--fault-timeout must be at most 30 days, got " + HUGE,
            "throughput|--messages 0|--messages must be at least 1, got 0",
            "throughput|--messages -1|--messages must be at least 1, got -1",
            "throughput|--messages " + HUGE + "|Invalid value for option '--messages': '" + HUGE + "' is not a long",
            "throughput|--duration 0|--duration must be longer than 0, got 0 ms",
            "throughput|--duration 9999999h|--duration must be at most 30 days, got 9999999h",
            "throughput|--max-outstanding 0|--max-outstanding must be at least 1, got 0",
            "throughput|--max-outstanding abc|Invalid value for option '--max-outstanding': 'abc' is not an int",
            "throughput|--consumers -1|--consumers must be at least 0, got -1",
    })
    void aValueNoRunCanCarryOutIsOneLineNamingTheFlagAndNothingStarts(String command, String args, String expected) {
        ScriptedCellRunner runner = ScriptedCellRunner.failingIfRun();
        CliRun run = CliRun.with(runner, commandLine(command, args));

        assertEquals(2, run.exitCode, run.toString());
        assertEquals(1, run.err.lines().count(), run.err);
        assertEquals("error: " + expected, run.err.strip().replaceFirst(" \\(see java -jar bench-all.jar \\w+ --help\\)$", ""));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "e2e|--seed -1", "e2e|--seed 0", "e2e|--warmup 0", "e2e|--drain-timeout 0", "e2e|--spin-window 0",
            "e2e|--spin-window auto", "e2e|--spin-window 1s",
            "e2e|--poll-timeout 0", "e2e|--rate 10000000", "e2e|--rate 20000000 --producers 2",
            "e2e|--duration 696h --warmup 24h",
            "throughput|--messages 9223372036854775807", "throughput|--max-outstanding 2147483647",
            "throughput|--consumers 0",
            "e2e|--producers 10000000 --rate 10000000 --producer-threads 1000 --consumer-connections 1",
            "e2e|--producers 4000 --topics 1000 --consumers 4 --rate 4000",
            "e2e|--producers 12 --producer-threads 3 --topics 6 --consumers 2 --consumer-connections 6",
    })
    void theLimitsThemselvesAreAccepted(String command, String args) {
        ScriptedCellRunner runner = new ScriptedCellRunner(cell -> new CellOutcome(ExitCode.OK, null, null));
        CliRun run = CliRun.with(runner, commandLine(command, args));

        assertEquals(0, run.exitCode, run.toString());
        assertEquals(1, runner.calls().size());
    }

    private String[] commandLine(String command, String args) {
        List<String> all = new ArrayList<>(List.of(command));
        all.addAll(List.of(args.split(" ")));
        all.addAll(List.of("--output", dir.resolve("out").toString()));
        return all.toArray(String[]::new);
    }
}
