package dev.msgbench.core.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.msgbench.core.UserError;
import dev.msgbench.core.result.Redaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretsTest {

    @TempDir
    Path dir;

    @Test
    void aSecretNeverPrintsItselfAndIsScrubbedFromAnyText() {
        Secret secret = Secret.of("s3cret-for-scrub-test");

        assertEquals("***", secret.toString());
        assertEquals("connect to nats://u:***@127.0.0.1:1 failed: *** refused",
                Secrets.scrub("connect to nats://u:s3cret-for-scrub-test@127.0.0.1:1 failed: s3cret-for-scrub-test refused"));
        assertEquals("{url=redis://:***@h:1}", Redaction.redact(java.util.Map.of("url", "redis://:s3cret-for-scrub-test@h:1")).toString());
    }

    @Test
    void aSecretContainingAnotherIsReplacedWhole() {
        Secret.of("inner-secret-x");
        Secret.of("outer-inner-secret-x-long");

        assertEquals("a *** b ***", Secrets.scrub("a outer-inner-secret-x-long b inner-secret-x"));
    }

    @Test
    void linesPrintedThroughTheScrubbingStreamLoseTheSecretEvenWhenWrittenInPieces() throws IOException {
        Secret.of("piecewise-secret");
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        ScrubbingOutputStream scrubbing = new ScrubbingOutputStream(sink);
        PrintStream out = new PrintStream(scrubbing, true, StandardCharsets.UTF_8);

        out.print("password piece");
        out.print("wise-secret in a line\r");
        out.println("error: piecewise-secret");
        out.print("no line end piecewise-secret");
        out.flush();
        assertEquals("password *** in a line\rerror: ***" + System.lineSeparator(), sink.toString(StandardCharsets.UTF_8));
        scrubbing.flushAll();

        assertEquals("password *** in a line\rerror: ***" + System.lineSeparator() + "no line end ***",
                sink.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aNonAsciiSecretIsScrubbedFromUtf8OutputAndOtherTextKeepsItsBytes() throws IOException {
        Secret.of("pässwörd-ünicode");
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        ScrubbingOutputStream scrubbing = new ScrubbingOutputStream(sink);
        PrintStream out = new PrintStream(scrubbing, true, StandardCharsets.UTF_8);

        out.println("p99 ≈ 3 µs, login pässwörd-ünicode refused");

        assertEquals("p99 ≈ 3 µs, login *** refused" + System.lineSeparator(), sink.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aSecretFileLosesItsLineEndAndAnEmptyOneIsRefused() throws IOException {
        Path file = dir.resolve("pw");
        Files.writeString(file, "from-a-file\n");
        assertEquals("from-a-file", Secret.fromFile("--password-file", file).reveal());

        Files.writeString(file, "\n");
        UserError e = assertThrows(UserError.class, () -> Secret.fromFile("--password-file", file));
        assertEquals("--password-file: " + file + " is empty", e.getMessage());
        e = assertThrows(UserError.class, () -> Secret.fromFile("--password-file", dir.resolve("none")));
        assertEquals("--password-file: no such file " + dir.resolve("none"), e.getMessage());
    }
}
