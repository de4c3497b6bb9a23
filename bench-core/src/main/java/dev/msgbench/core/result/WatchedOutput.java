package dev.msgbench.core.result;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file's stream under a PrintStream, which swallows write errors: this keeps the first, and
 * the bytes written before it, so the writer can say which file failed and why. After a failure
 * it drops what follows, so that a disk that frees space again cannot put a later line after a
 * half-written one.
 */
final class WatchedOutput extends FilterOutputStream {

    private final Path file;
    private long count;
    private IOException failure;

    WatchedOutput(Path file, OutputStream out) {
        super(out);
        this.file = file;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (failure != null) {
            return;
        }
        try {
            out.write(b, off, len);
            count += len;
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public void flush() throws IOException {
        if (failure == null) {
            super.flush();
        }
    }

    /** Bytes written so far. */
    long count() {
        return count;
    }

    /** What failed, with what is kept of the file (a write cut short leaves part of a line); null when nothing did. */
    FileNotWritten failure(boolean keepsWhatWasWritten) {
        if (failure == null) {
            return null;
        }
        long kept = count;
        try {
            kept = Files.size(file);
        } catch (IOException e) {
            // the count of whole writes is the best we know
        }
        return new FileNotWritten(file, failure, keepsWhatWasWritten ? kept : -1);
    }
}
