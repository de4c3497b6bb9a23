package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.msgbench.core.disk.ForgetfsMount;
import dev.msgbench.core.testing.Poll;

/**
 * A test's local brokers in a temp dir of their own, so that what they leave behind is theirs
 * alone, whatever else runs on the machine (the other test fork, other builds): the launchers
 * read java.io.tmpdir at every start, and a fork runs its tests one at a time, so the property is
 * set for the test's duration and put back after.
 */
final class OwnTmpdir {

    /** Where every run keeps the markers of its live processes: it stays, empty. */
    private static final String MARKERS = "msgbench-owned";

    private final Path dir;
    private final String before;

    private OwnTmpdir(Path dir) {
        this.dir = dir;
        this.before = System.getProperty("java.io.tmpdir");
    }

    /** java.io.tmpdir is {@code dir} (created) until {@link #restoreAndCheck}. */
    static OwnTmpdir enter(Path dir) throws IOException {
        OwnTmpdir own = new OwnTmpdir(Files.createDirectories(dir.toAbsolutePath()));
        System.setProperty("java.io.tmpdir", own.dir.toString());
        return own;
    }

    /**
     * Puts java.io.tmpdir back, then checks that the runs left no process (none whose command line
     * names the dir: broker nodes, forgetfs daemons), no mount and no file in it.
     */
    void restoreAndCheck() throws Exception {
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
