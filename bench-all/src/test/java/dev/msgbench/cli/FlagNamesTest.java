package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.core.Setting;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.cpu.CpuContention;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.cpu.CpuPlacement;
import dev.msgbench.core.cpu.CpuUsage;
import dev.msgbench.core.cpu.SpinWindowChoice;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.run.Destinations;
import dev.msgbench.core.security.TlsFiles;
import dev.msgbench.core.testing.TakesSeconds;
import picocli.CommandLine;

/**
 * bench-core names settings, never flags (NoFlagInCoreTest); the command line shows each as its
 * flag: in its error lines, and in the lines of a run that reach result.json and the summary.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlagNamesTest {

    @TempDir
    Path dir;

    @Test
    void everySettingCoreNamesIsAFlagOfTheTool() {
        List<CommandLine> commands = new ArrayList<>();
        addWithSubcommands(CommandLines.tool(Io.system()), commands);
        List<String> missing = new ArrayList<>();
        for (Setting setting : Setting.values()) {
            String flag = FlagNames.FLAGS.nameOf(setting);
            if (commands.stream().noneMatch(command -> command.getCommandSpec().findOption(flag) != null)) {
                missing.add(flag);
            }
        }
        assertEquals(List.of(), missing);
        assertEquals("--producer-threads", FlagNames.FLAGS.nameOf(Setting.PRODUCER_THREADS));
    }

    /** native-tool's flags sit a level down, on run and prepare. */
    private static void addWithSubcommands(CommandLine command, List<CommandLine> all) {
        all.add(command);
        command.getSubcommands().values().forEach(sub -> addWithSubcommands(sub, all));
    }

    @Test
    void anErrorOfTheEngineIsOneLineNamingTheFlag() {
        assertEquals("error: --brokers must be at least 1, got 0", reported(() -> BrokerSpec.defaults().withNodes(0)));
        assertEquals("error: --client-cert needs --client-key (the private key of the certificate)",
                reported(() -> new TlsFiles(null, dir.resolve("c.pem"), null)));
        assertEquals("--topics 3: every topic needs a producer stream of its own; give --producers 3 or more, or fewer "
                + "topics (got 2)", FlagNames.render(new Destinations(3, 1).tooFewProducers(2)));
    }

    @Test
    void theEnginesWarningsNameTheFlagsWhereTheCommandLineJudgesAnything() {
        CpuPlacement shared = new CpuPlacement(CpuList.parse("0-1"), CpuList.parse("0-1"));
        CpuUsage busy = new CpuUsage(8, 2, 0.97, 0.0, Map.of(0, 0.97, 1, 0.97), 1.19, 0.8, 0.79, List.of(0.79), 0.0, 0.0);

        assertEquals(List.of("cpu contention: the load generator and the broker shared CPUs 0-1 and kept them 99% busy "
                + "(load generator 1.19 cores, broker 0.79): latency includes each one's waits for a core; pin them apart "
                + "(--broker-cpus, --cpus) and compare", "cpu contention: the producers spun 0.80 cores (--spin-window "
                + "80us) on CPUs the broker runs on (0-1), 97% busy: the broker waited for the cores they held; give "
                + "--spin-window 0 (or auto), or pin them apart"),
                CpuContention.judge(busy, List.of(), shared, 80_000, FlagNames.FLAGS).warnings());
        assertEquals("given (--spin-window)", SpinWindowChoice.given(Duration.ofNanos(80_000), FlagNames.FLAGS).why());
    }

    /** The run's own lines in result.json: the fault's outcome, and why the spin window is what it is. */
    @Test
    @TakesSeconds
    void aRunsResultNamesTheFlags() throws Exception {
        Path out = dir.resolve("run");
        CliRun run = CliRun.of("e2e", "--system", "loopback", "--rate", "200", "--duration", "2s", "--warmup", "0s",
                "--spin-window", "80us", "--fault", "exec@200ms='sleep 30'", "--fault-timeout", "1s",
                "--output", out.toString());

        assertEquals(0, run.exitCode, run.toString());
        JsonNode r = ResultFiles.json().readTree(out.resolve("result.json").toFile());
        assertEquals("failed: still running after 1s (--fault-timeout), killed",
                r.get("faults").get(0).get("event").get("outcome").asText());
        assertEquals("given (--spin-window)", r.get("loadGenerator").get("spinWindowChoice").asText());
        assertTrue(run.out.contains("failed: still running after 1s (--fault-timeout), killed"), run.out);
    }

    private static String reported(Runnable failing) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            failing.run();
            throw new AssertionError("no error");
        } catch (RuntimeException e) {
            ErrorLines.report(e, new PrintStream(err, true, StandardCharsets.UTF_8));
        }
        return err.toString(StandardCharsets.UTF_8).strip();
    }
}
