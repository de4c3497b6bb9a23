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

import dev.msgbench.core.broker.FreePorts;

/** Bad RabbitMQ input: one line naming the flag, exit code 2, refused before any broker starts. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RabbitMqCommandLineTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--acks all|error: --acks all needs --queue-type quorum: a transient queue lives on one node, so its confirm means that node has the message (--acks 1)",
            "--acks all --queue-type durable|error: --acks all needs --queue-type quorum: a durable queue lives on one node, so its confirm means that node has the message (--acks 1)",
            "--acks 1 --queue-type quorum|error: --acks 1 has no equivalent with --queue-type quorum: a quorum queue confirms only once a quorum of its replicas has the message; use --acks all",
            "--max-unconfirmed 10|error: --max-unconfirmed applies to publisher confirms only, which --acks 0 turns off; add --acks 1 (or --acks all with --queue-type quorum)",
            "--acks 1 --max-unconfirmed 0|error: --max-unconfirmed must be at least 1, got 0",
            "--consumer-ack auto --prefetch 10|error: --prefetch applies to --consumer-ack manual only: RabbitMQ does not limit deliveries to auto-ack consumers",
            "--prefetch 70000|error: --prefetch must be 1 to 65535 (RabbitMQ's basic.qos limit), got 70000",
            "--brokers 3 --acks 1|error: --acks 1 has no equivalent on a local cluster, whose queues are quorum queues by default: a quorum queue confirms only once a quorum of its replicas has the message; use --acks all, or --queue-type durable for a classic queue on one node",
            "--brokers 3 --queue-type transient --acks all|error: --acks all needs --queue-type quorum: a transient queue lives on one node, so its confirm means that node has the message (--acks 1)",
            "--url rabbit|error: --url must be amqp://[USER:PASSWORD@]HOST[:PORT][/VHOST] or HOST:PORT, got 'rabbit'",
            "--queue-type lazy|error: Invalid value for option '--queue-type': expected one of [TRANSIENT, DURABLE, QUORUM] (case-insensitive) but was 'lazy' (see java -jar bench-all.jar e2e --help)",
            "--partitions 3|error: --partitions applies to --system kafka only, not rabbitmq (see java -jar bench-all.jar e2e --help)",
    })
    void badInputIsOneLineNamingTheFlagAndExitsWithTwo(String args, String expected) {
        CliRun run = CliRun.of(args("e2e --system rabbitmq " + args + " --output " + dir.resolve("out")));
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(expected + System.lineSeparator(), run.err, run.toString());
        assertEquals("", run.out);
        assertTrue(Files.notExists(dir.resolve("out").resolve("broker-logs")), "no broker was started");
    }

    @Test
    void aBrokerSettingThatMsgbenchChoosesIsRefusedBeforeTheNodeStarts() {
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq", "--broker-prop", "listeners.tcp.default=5672",
                "--output", dir.resolve("out").toString());
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("starting a local rabbitmq broker (1 node) ..." + System.lineSeparator()
                + "error: --broker-prop listeners.tcp.default cannot be set: msgbench chooses it for every run "
                + "(ports, log files, cluster peers); remove it" + System.lineSeparator(), run.err);
    }

    @Test
    void anUnreachableUrlIsReportedWithinTenSeconds() {
        int port = FreePorts.take(1).get(0);
        long start = System.nanoTime();
        CliRun run = CliRun.of("e2e", "--system", "rabbitmq", "--url", "amqp://127.0.0.1:" + port, "--output",
                dir.toString());
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --url: no RabbitMQ broker answered at amqp://127.0.0.1:" + port + " within 5 s "
                + "(Connection refused); check the address, or omit --url to start a local broker"
                + System.lineSeparator(), run.err);
        assertTrue(seconds < 10, "took " + seconds + " s");
    }

    @Test
    void helpListsTheRabbitMqFlags() {
        CliRun run = CliRun.of("e2e", "--help");
        assertEquals(0, run.exitCode, run.toString());
        for (String flag : new String[] {"--queue-type", "--max-unconfirmed", "--consumer-ack", "--prefetch"}) {
            assertTrue(run.out.contains(flag), flag);
        }
        assertTrue(run.out.contains("RabbitMQ: transient (non-durable classic queue"), run.out);
    }

    private static String[] args(String line) {
        return line.trim().split("\\s+");
    }
}
