package dev.msgbench.cli.report;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The part of a file the suite writes line by line (latency.hlog, intervals.csv) that a reader
 * can trust: its lines from the start up to the first one cut short (no newline: a run killed or
 * a disk full mid-write) or not as the suite writes it (zeros or other bytes a power cut left).
 * The readers read only that part, so they neither fail on the rest nor read a number cut in half
 * as a whole one.
 *
 * @param bytes   the length of that part
 * @param problem what ends it before the file's end, on one line; null when the file is whole
 */
record WholeLines(Path file, long bytes, String problem) {

    static final String CUT_SHORT = " (a run killed, a full disk or a power cut while writing it?)";

    /** Scans {@code file}; {@code wellFormed} judges each line (without its newline), read as ISO-8859-1. */
    static WholeLines of(Path file, Predicate<String> wellFormed) throws IOException {
        long whole = 0;
        long lineNumber = 0;
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            int b;
            while ((b = in.read()) >= 0) {
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                lineNumber++;
                String text = line.toString(StandardCharsets.ISO_8859_1);
                if (!wellFormed.test(text.endsWith("\r") ? text.substring(0, text.length() - 1) : text)) {
                    return new WholeLines(file, whole, String.format(Locale.US, "line %,d is not as msgbench writes it "
                            + "(bytes a power cut or an editor left?)", lineNumber));
                }
                whole += line.size() + 1;
                line.reset();
            }
        }
        if (line.size() > 0) {
            return new WholeLines(file, whole, String.format(Locale.US, "ends mid-line at byte %,d", whole + line.size())
                    + CUT_SHORT);
        }
        return new WholeLines(file, whole, null);
    }

    /** Printable ASCII only: what the suite's text files hold. */
    static boolean printable(String line) {
        return line.chars().allMatch(c -> c >= 0x20 && c < 0x7f || c == '\t');
    }

    /** The trusted part's bytes. */
    InputStream open() throws IOException {
        return new FilterInputStream(Files.newInputStream(file)) {
            private long left = bytes;

            @Override
            public int read() throws IOException {
                if (left <= 0) {
                    return -1;
                }
                int b = super.read();
                if (b >= 0) {
                    left--;
                }
                return b;
            }

            @Override
            public int read(byte[] buffer, int off, int len) throws IOException {
                if (left <= 0) {
                    return -1;
                }
                int n = super.read(buffer, off, (int) Math.min(len, left));
                if (n > 0) {
                    left -= n;
                }
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                long skipped = super.skip(Math.min(n, left));
                left -= skipped;
                return skipped;
            }

            @Override
            public int available() throws IOException {
                return (int) Math.min(super.available(), left);
            }
        };
    }
}
