package dev.msgbench.cli;

import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import dev.msgbench.core.security.ScrubbingOutputStream;

/**
 * Where commands print. Passed in rather than taken from System so that tests run the command
 * line in-process and read what it printed.
 *
 * @param terminal whether a person is watching: enables the live line and bold warnings
 * @param charset  how {@code out} and {@code err} encode text, kept by {@link #scrubbed}
 */
public record Io(PrintStream out, PrintStream err, boolean terminal, Charset charset) {

    /** Streams that encode UTF-8, as tests make them. */
    public Io(PrintStream out, PrintStream err, boolean terminal) {
        this(out, err, terminal, StandardCharsets.UTF_8);
    }

    public static Io system() {
        return new Io(System.out, System.err, System.console() != null, Charset.defaultCharset());
    }

    /** These streams behind {@link ScrubbingOutputStream}s: no known secret gets through. */
    Scrubbed scrubbed() {
        ScrubbingOutputStream scrubbedOut = new ScrubbingOutputStream(out);
        ScrubbingOutputStream scrubbedErr = new ScrubbingOutputStream(err);
        return new Scrubbed(new Io(new PrintStream(scrubbedOut, true, charset), new PrintStream(scrubbedErr, true, charset),
                terminal, charset), scrubbedOut, scrubbedErr);
    }

    /** The scrubbed Io and its streams, whose unfinished lines go out at {@link #flushAll}. */
    record Scrubbed(Io io, ScrubbingOutputStream out, ScrubbingOutputStream err) {

        void flushAll() {
            for (ScrubbingOutputStream stream : new ScrubbingOutputStream[] {out, err}) {
                try {
                    stream.flushAll();
                } catch (java.io.IOException e) {
                    // stdout closed under us (a pipe whose reader left): nothing left to tell anyone
                }
            }
        }
    }
}
