package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.msgbench.cli.cell.CellOutcome;

/**
 * Kafka's transaction flags (--transactions, --abort-every, --isolation-level): what no run can
 * carry out is one line naming the flag, exit 2, before any broker starts; the forms a run takes
 * are accepted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KafkaTransactionFlagsTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--transactions 0|--transactions must be 1 to 10000000 messages, or a time such as 50ms, got '0'",
            "--transactions 99999999999|--transactions must be 1 to 10000000 messages, or a time such as 50ms, got '99999999999'",
            "--transactions 0ms|--transactions must be a time longer than 0 and shorter than 1m (Kafka's transaction.timeout.ms aborts longer ones), got '0ms'",
            "--transactions 2m|--transactions must be a time longer than 0 and shorter than 1m (Kafka's transaction.timeout.ms aborts longer ones), got '2m'",
            "--transactions lots|--transactions must be a count of messages (100) or a time (50ms), got 'lots'",
            "--transactions 100 --abort-every 0|--abort-every must be at least 1 (every transaction), got 0",
            "--abort-every 3|--abort-every 3 aborts transactions: give --transactions too",
            "--isolation-level serializable|--isolation-level must be read_committed or read_uncommitted, got 'serializable'",
            "--transactions 100 --acks 1|--transactions needs --acks all (Kafka's transactions need the idempotent producer, which waits for every in-sync replica), got --acks 1",
            "--transactions 100 --producer-prop enable.idempotence=false|--transactions needs the idempotent producer: drop --producer-prop enable.idempotence=false",
            "--transactions 100 --producer-prop transactional.id=mine|--producer-prop transactional.id: --transactions gives each producer an id of the run's own; drop the property",
            "--transactions 100 --pattern echo|--pattern echo and --transactions: the responder would forward outside any transaction; give one of them",
            "--system nats --transactions 100|--transactions applies to --system kafka only, not nats",
    })
    void aTransactionSettingNoRunCanCarryOutIsOneLineNamingTheFlag(String args, String expected) {
        CliRun run = CliRun.with(ScriptedCellRunner.failingIfRun(), e2e(args));

        assertEquals(2, run.exitCode, run.toString());
        assertEquals(1, run.err.lines().count(), run.err);
        assertEquals("error: " + expected, run.err.strip().replaceFirst(" \\(see java -jar bench-all.jar \\w+ --help\\)$", ""));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--transactions 1", "--transactions 10000000", "--transactions 50ms", "--transactions 59s",
            "--transactions 100 --abort-every 1", "--transactions 100 --isolation-level read_uncommitted",
            "--isolation-level read_committed", "--transactions 100 --acks all",
    })
    void theFormsOfARunAreAccepted(String args) {
        ScriptedCellRunner runner = new ScriptedCellRunner(cell -> new CellOutcome(ExitCode.OK, null, null));
        CliRun run = CliRun.with(runner, e2e(args));

        assertEquals(0, run.exitCode, run.toString());
        assertEquals(1, runner.calls().size());
    }

    @Test
    void helpSaysHowSendsGoOnWhileATransactionCommits() {
        CliRun run = CliRun.of("e2e", "--help");

        String help = run.out.replaceAll("\\s+", " ");
        for (String said : List.of("--transactions=SIZE", "while one commits, on a thread of its own, the other takes the "
                + "scheduled sends", "never as a silent pause", "--abort-every=N", "--isolation-level=LEVEL")) {
            assertEquals(true, help.contains(said), said + " missing from: " + help);
        }
    }

    private String[] e2e(String args) {
        List<String> all = new ArrayList<>(List.of("e2e"));
        all.addAll(List.of(args.split(" ")));
        all.addAll(List.of("--output", dir.resolve("out").toString()));
        return all.toArray(String[]::new);
    }
}
