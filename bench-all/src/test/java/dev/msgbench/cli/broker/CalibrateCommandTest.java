package dev.msgbench.cli.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;

import dev.msgbench.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
                + "redis, redis-streams" + " (see java -jar bench-all.jar calibrate --help)" + NL, run.err);
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

    @Test
    void thePowerLossCalibrationChoosesItsSystemAndSettingsItself() {
        CliRun system = CliRun.of("calibrate", "--power-loss", "--system", "kafka");
        assertEquals("error: --system is the stall calibration's; --power-loss runs redis-streams in runs of its own, so "
                + "drop --system (see java -jar bench-all.jar calibrate --help)" + NL, system.err);
        assertEquals(2, system.exitCode);

        CliRun pause = CliRun.of("calibrate", "--power-loss", "--pause", "1s");
        assertEquals("error: --pause is the stall calibration's; --power-loss runs redis-streams in runs of its own, so "
                + "drop --pause (see java -jar bench-all.jar calibrate --help)" + NL, pause.err);

        CliRun prop = CliRun.of("calibrate", "--power-loss", "--broker-prop", "appendfsync=no");
        assertEquals("error: --broker-prop is set by calibrate --power-loss, whose answers hold for the settings it "
                + "chooses; drop it (see java -jar bench-all.jar calibrate --help)" + NL, prop.err);
        assertEquals(2, prop.exitCode);
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
