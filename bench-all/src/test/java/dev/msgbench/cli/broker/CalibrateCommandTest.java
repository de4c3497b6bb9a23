package dev.msgbench.cli.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;

import dev.msgbench.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** calibrate refuses what cannot calibrate anything before a broker starts. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CalibrateCommandTest {

    private static final String NL = System.lineSeparator();

    @Test
    void theFlagsCalibrateSetsItselfAreRefused() {
        CliRun run = CliRun.of("calibrate", "--system", "nats", "--fault", "kill@1s");
        assertEquals("error: --fault is set by calibrate; give --pause, --duration, --warmup and --rate of calibrate "
                + "instead" + " (see java -jar bench-all.jar calibrate --help)" + NL, run.err);
        assertEquals(2, run.exitCode);
    }

    @Test
    void aSystemWithoutABrokerCannotBePaused() {
        CliRun run = CliRun.of("calibrate", "--system", "loopback");
        assertEquals("error: --system loopback has no broker to pause; give one of kafka, nats, jetstream, rabbitmq, "
                + "rabbitmq-streams, redis, redis-streams, pulsar, mqtt" + " (see java -jar bench-all.jar calibrate --help)" + NL, run.err);
        assertEquals(2, run.exitCode);
    }

    @Test
    void theWindowMustBeLongEnoughForABeforeAndAnAfter() {
        CliRun run = CliRun.of("calibrate", "--system", "nats", "--pause", "3s", "--duration", "10s");
        assertEquals("error: --duration must be at least four times --pause (12s), got 10s" + " (see java -jar bench-all.jar calibrate --help)" + NL, run.err);
        assertEquals(2, run.exitCode);
    }

    @Test
    void calibrateNeedsASystemToPauseOrThePowerLoss() {
        CliRun run = CliRun.of("calibrate");
        assertEquals("error: calibrate needs --system (the broker it pauses), or --power-loss"
                + " (see java -jar bench-all.jar calibrate --help)" + NL, run.err);
        assertEquals(2, run.exitCode);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"--system, kafka", "--pause, 1s", "--rate, 10"})
    void thePowerLossCalibrationRefusesTheStallCalibrationsFlags(String flag, String value) {
        CliRun run = CliRun.of("calibrate", "--power-loss", flag, value);
        assertEquals("error: " + flag + " is the stall calibration's; --power-loss runs redis-streams in runs of its own, "
                + "so drop " + flag + " (see java -jar bench-all.jar calibrate --help)" + NL, run.err);
        assertEquals(2, run.exitCode);
    }

    @Test
    void thePowerLossCalibrationChoosesTheBrokersSettingsItself() {
        CliRun run = CliRun.of("calibrate", "--power-loss", "--broker-prop", "appendfsync=no");
        assertEquals("error: --broker-prop is set by calibrate --power-loss, whose answers hold for the settings it "
                + "chooses; drop it (see java -jar bench-all.jar calibrate --help)" + NL, run.err);
        assertEquals(2, run.exitCode);
    }

    @Test
    void aBadE2eFlagOfThePowerLossCalibrationIsOneLineBeforeAnythingStarts() {
        CliRun run = CliRun.of("calibrate", "--power-loss", "--size", "huge");
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(1, run.err.lines().count(), run.err);
        assertEquals("", run.out);
    }

    @Test
    void aBadE2eFlagIsReportedAsE2eWouldBeforeAnythingStarts() {
        CliRun run = CliRun.of("calibrate", "--system", "nats", "--size", "huge");
        assertEquals(2, run.exitCode, run.toString());
        assertEquals(1, run.err.lines().count(), run.err);
        assertEquals("", run.out);
    }
}
