package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A child JVM on a class path of its own (a broker's jars): it sees those and the watchdog, nothing of ours. */
class OwnClassPathChildTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(30)
    void aChildOnAClassPathOfItsOwnRunsUnderTheWatchdogAndSeesNoneOfTheRunnersClasses() throws Exception {
        // this module's test classes hold the child's main, and none of bench-core's main classes
        Path testClasses = Path.of(ChildMains.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path out = dir.resolve("class-path.txt");

        JavaChild ownClassPath = new JavaChild("child", ChildMains.ReportsItsClassPath.class.getName(), List.of(),
                List.of(out.toString()), dir, dir.resolve("child.log"), dir).withClassPath(List.of(testClasses));

        ManagedProcess child = ManagedProcess.start(ownClassPath.toCommand(), dir.resolve("owned"));

        assertEquals(OptionalInt.of(0), child.awaitExit(Duration.ofSeconds(20)), () -> log());
        assertEquals(dir.resolve(WatchdogJar.FILE_NAME) + File.pathSeparator + testClasses + "\nfalse\n",
                Files.readString(out));
    }

    @Test
    void aClassPathOfItsOwnNeedsATempDirForTheWatchdogsJar() {
        JavaChild child = new JavaChild("kafka node 1", "kafka.Kafka", List.of(), List.of(), dir, dir.resolve("log"),
                null);

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> child.withClassPath(List.of()));

        assertEquals("kafka node 1 needs a temp dir for the watchdog's jar to run on a class path of its own",
                e.getMessage());
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("child.log"));
        } catch (IOException e) {
            return "no log: " + e;
        }
    }
}
