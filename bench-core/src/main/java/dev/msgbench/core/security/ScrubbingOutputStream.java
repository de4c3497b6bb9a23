package dev.msgbench.core.security;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Cleans what goes to stdout and stderr of known {@link Secrets}, a line at a time (a secret is
 * never split across a line): whatever prints, our code, a client library or a stack trace.
 * Passes bytes straight through while no secret is known.
 *
 * <p>A flush passes on complete lines only: an autoflushing PrintStream flushes after every
 * print, and a secret printed in two pieces would otherwise leave in two clean halves. The
 * unfinished line goes out at its line end, at {@link #close}, or once it is too long to be
 * anything but data.
 */
public final class ScrubbingOutputStream extends OutputStream {

    private final OutputStream out;
    private static final int LONGEST_HELD_LINE = 64 * 1024;

    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

    public ScrubbingOutputStream(OutputStream out) {
        this.out = out;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        if (!Secrets.any() && line.size() == 0) {
            out.write(b);
            return;
        }
        line.write(b);
        if (b == '\n' || b == '\r' || line.size() >= LONGEST_HELD_LINE) {
            emitLine();
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (!Secrets.any() && line.size() == 0) {
            out.write(b, off, len);
            return;
        }
        for (int i = off; i < off + len; i++) {
            write(b[i]);
        }
    }

    @Override
    public synchronized void flush() throws IOException {
        out.flush();
    }

    /** Passes on the unfinished line too: at the end of the program. */
    public synchronized void flushAll() throws IOException {
        emitLine();
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        flushAll();
        out.close();
    }

    private void emitLine() throws IOException {
        if (line.size() == 0) {
            return;
        }
        // bytes as Latin-1 chars, so that any encoding comes back byte for byte; Secrets knows
        // each secret's UTF-8 bytes in that form too
        out.write(Secrets.scrub(line.toString(StandardCharsets.ISO_8859_1)).getBytes(StandardCharsets.ISO_8859_1));
        line.reset();
    }
}
