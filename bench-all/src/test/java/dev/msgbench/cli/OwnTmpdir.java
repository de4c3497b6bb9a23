package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.msgbench.core.broker.TempDirs;
import dev.msgbench.core.disk.ForgetfsMount;
import dev.msgbench.core.testing.Poll;

/**
 * A test's local brokers in a temp dir of their own, so that what they leave behind is theirs
 * alone, whatever else runs on the machine (the other test fork, other builds): the launchers
 * read java.io.tmpdir at every start, and a fork runs its tests one at a time, so the property is
 * set for each test ({@code @ExtendWith(OwnTmpdir.class)}) and put back after it, when the test
 * fails unless the runs left no process, mount or file there.
 */
final class OwnTmpdir implements BeforeEachCallback, AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(OwnTmpdir.class);

    /** Where every run keeps the markers of its live processes: it stays, empty. */
    private static final String MARKERS = "msgbench-owned";

    /** The dir of one test, and the property's value before it. */
    private record Entered(Path dir, String before) {
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        String before = System.getProperty("java.io.tmpdir");
        Path dir = Files.createTempDirectory(Path.of(before), "msgbench-test-tmpdir-").toAbsolutePath();
        System.setProperty("java.io.tmpdir", dir.toString());
        context.getStore(NAMESPACE).put(context.getUniqueId(), new Entered(dir, before));
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        Entered entered = context.getStore(NAMESPACE).remove(context.getUniqueId(), Entered.class);
        try {
            restoreAndCheck(entered.dir(), entered.before());
        } finally {
            TempDirs.deleteRecursively(entered.dir());
        }
    }

    /**
     * Puts java.io.tmpdir back, then checks that the runs left no process (none whose command line
     * names the dir: broker nodes, forgetfs daemons), no mount and no file in it.
     */
    private static void restoreAndCheck(Path dir, String before) throws Exception {
        System.setProperty("java.io.tmpdir", before);
        String path = dir.toString();
        Poll.until(() -> ProcessHandle.allProcesses()
                .noneMatch(p -> p.info().commandLine().map(c -> c.contains(path)).orElse(false)));
        assertEquals(List.of(), ForgetfsMount.list().stream().filter(m -> m.mountPoint().startsWith(dir)).toList());
        try (Stream<Path> files = Files.walk(dir)) {
            assertEquals(List.of(), files.filter(f -> !f.equals(dir) && !f.equals(dir.resolve(MARKERS))).toList(),
                    "left in the brokers' temp dir");
        }
    }
}
