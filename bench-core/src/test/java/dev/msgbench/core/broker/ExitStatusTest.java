package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class ExitStatusTest {

    @TempDir
    java.nio.file.Path dir;

    @Test
    void anExitValueAbove128IsTheSignalJavaReportsThatWay() {
        assertEquals("killed by signal 9 (SIGKILL)", ExitStatus.describe(137));
        assertEquals("killed by signal 15 (SIGTERM)", ExitStatus.describe(143));
        assertEquals("killed by signal 11 (SIGSEGV)", ExitStatus.describe(139));
        assertEquals("killed by signal 40", ExitStatus.describe(168));
    }

    @Test
    void otherValuesAreTheProcessesOwnStatus() {
        assertEquals("exited with status 0", ExitStatus.describe(0));
        assertEquals("exited with status 1", ExitStatus.describe(1));
        assertEquals("exited with status 128", ExitStatus.describe(128));
        assertEquals("exited with status 255", ExitStatus.describe(255));
    }

    @Test
    void aRealChildKilledWithSigkillIsDescribedSo() {
        ManagedProcess sleep = new NativeCommand("sleep", List.of("sleep", "60"), Map.of(), dir,
                dir.resolve("sleep.log"), null).start();
        try {
            sleep.kill();
            assertEquals("killed by signal 9 (SIGKILL)", sleep.exitDescription());
        } finally {
            sleep.stop(Duration.ZERO);
        }
    }
}
