package dev.msgbench.core.broker;

import static dev.msgbench.core.broker.ManagedProcessTest.waitUntil;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Child JVMs: the class path reaches them, and they end with their owner. */
class ChildJvmTest {

    @TempDir
    Path dir;

    private ManagedProcess start(String mainClass, List<String> jvmArgs, String... args) {
        NativeCommand command = new JavaChild("child", mainClass, jvmArgs, List.of(args), dir,
                dir.resolve("child.log"), null).toCommand();
        return ManagedProcess.start(command, dir.resolve("owned"));
    }

    @Test
    @Timeout(30)
    void theShutdownHookClosesWhatIsStillRegisteredNewestFirst() throws IOException {
        Path out = dir.resolve("closed.txt");

        ManagedProcess child = start(ChildMains.RegistersAndExits.class.getName(), List.of(), out.toString());

        assertEquals(OptionalInt.of(0), child.awaitExit(Duration.ofSeconds(20)), () -> log());
        assertEquals("third\nfirst\n", Files.readString(out));
    }

    @Test
    @Timeout(30)
    void aChildJvmEndsSoonAfterItsOwnerIsKilledWithSigkill() throws IOException {
        Path pidFile = dir.resolve("sleeper.pid");
        // the owner's markers go to its own tmpdir, not to the shared one
        ManagedProcess owner = start(ChildMains.StartsASleeper.class.getName(),
                List.of("-Djava.io.tmpdir=" + dir), pidFile.toString());
        waitUntil(() -> Files.exists(pidFile) || !owner.isAlive());
        assertTrue(owner.isAlive(), () -> log());
        ProcessHandle sleeper = ProcessHandle.of(Long.parseLong(Files.readString(pidFile))).orElseThrow();

        ProcessHandle.of(owner.pid()).orElseThrow().destroyForcibly();
        long killed = System.nanoTime();
        waitUntil(() -> !ProcStat.isRunning(sleeper));

        assertTrue(Duration.ofNanos(System.nanoTime() - killed).toMillis() < 3000, "ended within 3 s");
        assertTrue(Files.readString(dir.resolve("sleeper.log")).contains("msgbench: owner JVM " + owner.pid()
                + " is gone; stopping " + ChildMains.Sleeper.class.getName()));
        assertEquals(137, owner.stop(Duration.ZERO), "the owner died of SIGKILL");
    }

    @Test
    @Timeout(30)
    void aChildJvmWhoseOwnerIsAlreadyGoneDoesNotStart() throws IOException {
        ManagedProcess gone = ManagedProcess.start(NativeCommand.of("gone", dir.resolve("gone.log"), "true"),
                dir.resolve("owned"));
        gone.awaitExit(Duration.ofSeconds(10));
        List<String> command = new ArrayList<>(new JavaChild("child", ChildMains.Sleeper.class.getName(),
                List.of(), List.of(), dir, dir.resolve("child.log"), null).toCommand().command());
        // replace our pid, right after the watchdog class name, with the dead one
        int ownerArg = command.indexOf(ParentWatchdog.class.getName()) + 1;
        command.set(ownerArg, Long.toString(gone.pid()));

        ManagedProcess child = ManagedProcess.start(new NativeCommand("child", command, Map.of(), dir,
                dir.resolve("child.log"), null), dir.resolve("owned"));

        assertEquals(OptionalInt.of(ParentWatchdog.EXIT_OWNER_GONE), child.awaitExit(Duration.ofSeconds(20)));
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("child.log"));
        } catch (IOException e) {
            return "no log: " + e;
        }
    }
}
