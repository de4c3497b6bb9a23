package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.testing.TakesSeconds;

/** Bad input: one line on stderr naming the flag, the rule and the value; exit code 2; nothing started. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CommandLineTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "--rate|-5|error: --rate must be a positive number of messages per second, got -5 (see java -jar bench-all.jar e2e --help)",
            "--rate|0|error: --rate must be a positive number of messages per second, got 0 (see java -jar bench-all.jar e2e --help)",
            "--size|16B|error: --size must be at least 32 B (the message header), got 16 B (see java -jar bench-all.jar e2e --help)",
            "--size|1parsec|error: Invalid value for option '--size': '1parsec' has an unknown unit 'parsec' (use B, KB, KiB, MB, MiB, GB or GiB) (see java -jar bench-all.jar e2e --help)",
            "--system|foo|error: --system must be one of kafka, nats, jetstream, rabbitmq, rabbitmq-streams, redis, redis-streams, pulsar, mqtt, loopback, got 'foo' (see java -jar bench-all.jar e2e --help)",
            "--duration|0s|error: --duration must be longer than 0, got 0 ms (see java -jar bench-all.jar e2e --help)",
            "--warmup|soon|error: Invalid value for option '--warmup': 'soon' is not a duration (examples: 30s, 2m, 500ms, 1h) (see java -jar bench-all.jar e2e --help)",
            "--warmup|auto:0s|error: Invalid value for option '--warmup': 'auto:0s': the bound of auto:MAX must be whole seconds, at least 11s (two 5 s windows to judge, then measuring starts on the next second) (see java -jar bench-all.jar e2e --help)",
            "--warmup|auto:10s|error: Invalid value for option '--warmup': 'auto:10s': the bound of auto:MAX must be whole seconds, at least 11s (two 5 s windows to judge, then measuring starts on the next second) (see java -jar bench-all.jar e2e --help)",
            "--warmup|auto:abc|error: Invalid value for option '--warmup': 'auto:abc': the bound of auto:MAX 'abc' is not a duration (examples: 30s, 2m, 500ms, 1h) (see java -jar bench-all.jar e2e --help)",
            "--warmup|autox|error: Invalid value for option '--warmup': 'autox' is not a warm-up: give a time (5s), auto, or auto:MAX (auto:90s) (see java -jar bench-all.jar e2e --help)",
            "--acks|2|error: Invalid value for option '--acks': must be 0, 1 or all, got '2' (see java -jar bench-all.jar e2e --help)",
            "--brokers|0|error: --brokers must be at least 1, got 0 (see java -jar bench-all.jar e2e --help)",
            "--partitions|0|error: --partitions must be 1 to 10000, got 0",
            "--producers|0|error: --producers must be at least 1, got 0 (see java -jar bench-all.jar e2e --help)",
            "--cpus|0-|error: Invalid value for option '--cpus': '0-' is not a CPU list (examples: 0, 0-1, 0,2) (see java -jar bench-all.jar e2e --help)",
            "--broker-cpus|1;2|error: Invalid value for option '--broker-cpus': '1;2' is not a CPU list (examples: 0, 0-1, 0,2) (see java -jar bench-all.jar e2e --help)",
            "--cpus|2-1|error: Invalid value for option '--cpus': '2-1' is not a CPU list (examples: 0, 0-1, 0,2) (see java -jar bench-all.jar e2e --help)",
    })
    void badInputIsOneLineNamingTheFlagAndExitsWithTwo(String flag, String value, String expected) {
        CliRun run = CliRun.of("e2e", flag, value, "--output", dir.resolve("out").toString());
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(expected + System.lineSeparator(), run.err, run.toString());
        assertEquals("", run.out);
        assertTrue(Files.notExists(dir.resolve("out")), "nothing is written for bad input");
    }

    /** picocli's own line counted a misspelled flag's value as an unknown option and dropped its suggestion. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "e2e --rat 5|error: e2e has no flag '--rat'; did you mean --rate? (see java -jar bench-all.jar e2e --help)",
            "e2e --bogus-flag|error: e2e has no flag '--bogus-flag' (see java -jar bench-all.jar e2e --help)",
            "e2ee|error: there is no command 'e2ee'; did you mean e2e? (see java -jar bench-all.jar --help)",
            "e2e --rate 10 extra|error: e2e takes flags only, no argument such as 'extra': each setting is --name value (see java -jar bench-all.jar e2e --help)",
            "native-tool lsit|error: native-tool has no command 'lsit'; did you mean list? (see java -jar bench-all.jar native-tool --help)",
            "sweep --objective none --sytem=nats|error: sweep has no flag '--sytem'; did you mean --system? (see java -jar bench-all.jar sweep --help)",
            "bogus|error: there is no command 'bogus'; the commands are e2e, throughput, broker, responder, run, sweep, "
                    + "calibrate, floor, jmh-compare, tune, report, compare, merge, native-tool (see java -jar bench-all.jar --help)",
    })
    void anUnknownFlagOrCommandIsNamedWithTheNearestOne(String args, String expected) {
        CliRun run = CliRun.of(args.split(" "));
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(expected + System.lineSeparator(), run.err, run.toString());
    }

    @Test
    void aMalformedPropertySaysWhatFormItNeeds() {
        CliRun run = CliRun.of("e2e", "--producer-prop", "linger.ms");
        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("error: ") && run.err.contains("'--producer-prop' (KEY=VALUE) should be in KEY=VALUE format but was linger.ms"), run.err);
        assertEquals(1, run.err.lines().count());
    }

    @Test
    void aReplicationFactorLargerThanTheLocalClusterIsRefusedBeforeStartingIt() {
        CliRun run = CliRun.of("e2e", "--replication-factor", "3");
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --replication-factor 3 needs as many brokers; the local cluster would have 1 (add --brokers 3)"
                + System.lineSeparator(), run.err);
    }

    @Test
    void localBrokerFlagsCannotBeCombinedWithAnExistingCluster() {
        CliRun run = CliRun.of("e2e", "--bootstrap-servers", "127.0.0.1:9", "--brokers", "3");
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --brokers and --broker-prop configure a local broker and cannot be used with --url "
                + "(see java -jar bench-all.jar e2e --help)" + System.lineSeparator(), run.err);
    }

    @Test
    @TakesSeconds
    void anUnreachableBootstrapServerIsReportedWithinTenSeconds() {
        long start = System.nanoTime();
        CliRun run = CliRun.of("e2e", "--bootstrap-servers", "127.0.0.1:1", "--output", dir.toString());
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --bootstrap-servers: no Kafka broker answered at 127.0.0.1:1 within 5 s; check the address, "
                + "or omit the flag to start a local broker" + System.lineSeparator(), run.err);
        assertTrue(seconds < 10, "took " + seconds + " s");
    }

    @Test
    void helpTeachesEveryFlagOfE2e() {
        CliRun run = CliRun.of("e2e", "--help");
        assertEquals(0, run.exitCode);
        for (String flag : new String[] {"--system", "--rate", "--size", "--duration", "--warmup", "--output", "--quiet",
                "--seed", "--acks", "--partitions", "--replication-factor", "--producers", "--consumers", "--producer-prop",
                "--consumer-prop", "--commit", "--bootstrap-servers", "--broker-prop", "--brokers", "--arrival"}) {
            assertTrue(run.out.contains(flag), flag + " missing from help");
        }
        assertTrue(run.out.contains("Examples:"));
    }

    /** The flags every run uses first, then each system's own under its name; borrowed flags said where they are. */
    @ParameterizedTest
    @ValueSource(strings = {"e2e", "throughput", "responder"})
    void helpGroupsEachSystemsFlagsUnderItsName(String command) {
        String help = CliRun.of(command, "--help").out;
        assertTrue(help.startsWith("Usage: java -jar bench-all.jar " + command + " [OPTIONS]"), help);
        int common = help.indexOf("Options of every system:");
        int kafka = help.indexOf("--system kafka:");
        int nats = help.indexOf("--system nats:");
        int redisStreams = help.indexOf("--system redis-streams (also --redis-client, listed above):");
        assertTrue(common >= 0 && common < help.indexOf("--acks=ACKS") && help.indexOf("--acks=ACKS") < kafka, help);
        assertTrue(kafka < help.indexOf("--partitions=N") && help.indexOf("--partitions=N") < nats, help);
        assertTrue(nats < help.indexOf("--nats-client=CLIENT") && help.indexOf("--js-storage") > nats, help);
        assertTrue(redisStreams > help.indexOf("--redis-client=CLIENT") && help.indexOf("--maxlen=N") > redisStreams, help);
        assertFalse(help.contains("--system loopback:"), "loopback has no flags of its own: " + help);
    }

    @Test
    void theRootCommandListsItsCommandsAndVersion() {
        CliRun help = CliRun.of("--help");
        assertEquals(0, help.exitCode);
        assertTrue(help.out.contains("e2e") && help.out.contains("broker"), help.out);
        CliRun version = CliRun.of("--version");
        assertTrue(version.out.startsWith("msgbench "), version.out);
    }

    @Test
    void anUnknownBrokerSystemIsRefused() {
        CliRun run = CliRun.of("broker", "zeromq");
        assertEquals(2, run.exitCode);
        assertEquals("error: SYSTEM must be one of kafka, nats, jetstream, rabbitmq, rabbitmq-streams, redis, redis-streams, pulsar, mqtt, got 'zeromq' (see java -jar bench-all.jar broker --help)"
                + System.lineSeparator(), run.err);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "e2e|--cpus", "e2e|--broker-cpus", "throughput|--cpus", "throughput|--broker-cpus", "broker nats|--broker-cpus",
            "tune|--cpus", "tune|--broker-cpus"})
    void aCpuTheMachineDoesNotHaveIsRefusedNamingTheFlagAndTheOnlineCpus(String command, String flag) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of(flag, "0,4096", "--output", dir.resolve("out").toString()));
        if (command.equals("broker nats")) {
            args.removeAll(List.of("--output", dir.resolve("out").toString()));
        }
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(2, run.exitCode, run.toString());
        String name = command.split(" ")[0];
        assertEquals("error: Invalid value for option '" + flag + "': '0,4096' names CPU 4096, which this machine does "
                + "not have (online CPUs: " + CpuAffinity.online() + ") (see java -jar bench-all.jar " + name
                + " --help)" + System.lineSeparator(), run.err);
        assertTrue(Files.notExists(dir.resolve("out")), "nothing is written for bad input");
    }

    @Test
    void brokerCpusWithAnExistingBrokerIsRefusedBeforeConnecting() {
        CliRun run = CliRun.of("e2e", "--system", "nats", "--url", "nats://127.0.0.1:1", "--broker-cpus", "0");
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: --broker-cpus pins a local broker and cannot be used with --url "
                + "(see java -jar bench-all.jar e2e --help)" + System.lineSeparator(), run.err);
    }

    @Test
    void tuneRefusesAPinningFlagGivenBeforeAndAfterTheDoubleDash() {
        CliRun run = CliRun.of("tune", "--cpus", "0", "--output", dir.resolve("out").toString(), "--", "--cpus", "1");
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: tune: --cpus is given both before and after --; give it once" + System.lineSeparator(),
                run.err);
    }

    @Test
    void helpTeachesWhyToPinTheBrokerAndTheLoadGeneratorApart() {
        for (String command : List.of("e2e", "throughput", "tune", "broker")) {
            CliRun run = CliRun.of(command, "--help");
            assertEquals(0, run.exitCode);
            String text = run.out.replaceAll("\\s+", " ");
            assertTrue(text.contains("--broker-cpus"), command);
            assertTrue(text.contains("send delay and tail latency that belong to neither"), command + ": " + text);
        }
    }

    /**
     * picocli formats each description with String.format and, when that fails (a lone %, as in
     * "10% random"), prints a warning of its own to System.err on every --help: the help of every
     * command and subcommand must format cleanly.
     */
    @Test
    void everyCommandsHelpFormatsWithoutAPicocliWarning() {
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        List<String> commands = new java.util.ArrayList<>();
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            collect(Main.commandLine(Io.system()), List.of(), commands);
            for (String command : commands) {
                CliRun run = CliRun.of((command + " --help").trim().split(" "));
                assertEquals(0, run.exitCode, command);
            }
        } finally {
            System.setErr(original);
        }
        String warnings = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(commands.size() > 10, commands.toString());
        assertFalse(warnings.contains("picocli WARN"), warnings);
    }

    private static void collect(picocli.CommandLine line, List<String> path, List<String> commands) {
        commands.add(String.join(" ", path));
        line.getSubcommands().forEach((name, sub) -> {
            if (sub.getCommandName().equals(name) && !name.equals("help")) {
                List<String> deeper = new java.util.ArrayList<>(path);
                deeper.add(name);
                collect(sub, deeper, commands);
            }
        });
    }
}
