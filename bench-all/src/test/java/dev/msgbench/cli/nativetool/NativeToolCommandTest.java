package dev.msgbench.cli.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.msgbench.cli.CliRun;

/**
 * native-tool on the seed systems, none of it starting a broker or a tool: what scripts/compare-native
 * reads from list and describe, and the refusals of bad input in one line, exit 2.
 */
class NativeToolCommandTest {

    @Test
    void listNamesEverySystemWithATool() {
        CliRun run = CliRun.of("native-tool", "list");

        assertEquals(0, run.exitCode, run.toString());
        assertEquals(List.of("kafka", "nats", "rabbitmq", "rabbitmq-streams", "redis", "redis-streams", "pulsar"),
                run.out.lines().map(line -> line.split("\t")[0]).toList());
        assertTrue(run.out.contains("\nrabbitmq\tPerfTest\tcom.rabbitmq:perf-test 2.22.1 from Maven Central\t-\n"), run.out);
        assertTrue(run.out.contains("\nrabbitmq-streams\tPerfTest over AMQP to a stream queue\tcom.rabbitmq:perf-test "
                + "2.22.1 from Maven Central\t-\n"), run.out);
        assertTrue(run.out.contains("\npulsar\tpulsar-perf produce and consume\torg.apache.pulsar:pulsar-testclient 4.0.8 "
                + "from Maven Central, on the Pulsar 4.0.7 client\t-\n"), run.out);
    }

    @Test
    void describeGivesTheCountOursFlagsAndWhatIsComparedWithTheWarmupWhereBothLeaveItOut() {
        CliRun run = CliRun.of("native-tool", "describe", "kafka", "--side", "publisher", "--size", "100",
                "--warmup-messages", "3000000");

        assertEquals(0, run.exitCode, run.toString());
        assertEquals("""
                messages=8000000
                warmup=3000000
                comparable=true
                compared=ProducerPerformance records/sec (acks=1) vs our publisher msg/s (--acks 1); after a warm-up of \
                3000000 messages (ours: two runs of their own before, half each, ProducerPerformance: --warmup-records, \
                its steady-state line)
                ours=--acks
                ours=1
                ours=--consumers
                ours=0
                """, run.out);
    }

    @Test
    void aToolWithoutAWarmupRunsBothColdAndASideWithoutAFigureSaysWhy() {
        CliRun rabbit = CliRun.of("native-tool", "describe", "rabbitmq", "--side", "subscriber", "--size", "1KiB",
                "--messages", "5000", "--warmup-messages", "3000000");
        assertEquals(0, rabbit.exitCode, rabbit.toString());
        assertTrue(rabbit.out.startsWith("messages=5000\nwarmup=0\ncomparable=true\ncompared=PerfTest receiving rate, "
                + "1 producer (confirms) and 1 consumer (ack each, prefetch 100) vs our consumer msg/s, the same\n"), rabbit.out);

        CliRun streams = CliRun.of("native-tool", "describe", "redis-streams", "--side", "subscriber", "--size", "100");
        assertEquals("messages=2000000\nwarmup=0\ncomparable=false\ncompared=n/a: redis-benchmark has no Streams reader "
                + "(XREADGROUP) to compare our consumer with\n", streams.out);

        CliRun refused = CliRun.of("native-tool", "run", "redis-streams", "--side", "subscriber", "--size", "100",
                "--url", "redis://127.0.0.1:1");
        assertEquals(2, refused.exitCode, refused.toString());
        assertEquals("error: --side subscriber: redis-benchmark has no Streams reader (XREADGROUP) to compare our "
                + "consumer with\n", refused.err);
    }

    @Test
    void badInputIsOneLineNamingTheFlagAndPrintsNothingElse() {
        CliRun knob = CliRun.of("native-tool", "describe", "nats", "--side", "publisher", "--size", "100",
                "--knob", "nats-clients=direct");
        assertEquals(2, knob.exitCode, knob.toString());
        assertEquals("error: --knob nats-clients: no native tool takes it; they take kafka-transaction-ms, nats-client, redis-client, "
                + "redis-pipeline (see java -jar bench-all.jar native-tool describe --help)\n", knob.err);

        CliRun value = CliRun.of("native-tool", "describe", "redis", "--side", "publisher", "--size", "100",
                "--knob", "redis-pipeline=0");
        assertEquals(2, value.exitCode, value.toString());
        assertEquals("", value.out);
        assertEquals("error: --knob redis-pipeline must be a whole number of at least 1, got '0'\n", value.err);

        CliRun noUrl = CliRun.of("native-tool", "run", "redis", "--side", "publisher", "--size", "100");
        assertEquals(2, noUrl.exitCode, noUrl.toString());
        assertTrue(noUrl.err.startsWith("error: --url is required: the broker to run against, as `broker redis` prints it"),
                noUrl.err);

        CliRun small = CliRun.of("native-tool", "describe", "redis", "--side", "publisher", "--size", "31");
        assertEquals(2, small.exitCode, small.toString());
        assertTrue(small.err.startsWith("error: --size must be at least 32 B (our header), got 31 B"), small.err);

        CliRun jetstream = CliRun.of("native-tool", "prepare", "jetstream");
        assertEquals(2, jetstream.exitCode, jetstream.toString());
        assertTrue(jetstream.err.startsWith("error: SYSTEM must be a system with a native tool: kafka, nats, rabbitmq, "
                + "rabbitmq-streams, redis, redis-streams, pulsar; got 'jetstream'"), jetstream.err);
    }
}
