package dev.msgbench.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Bytes from one thread to another in the chunks they were written: a read returns at most what
 * one write wrote, so a test decides where a protocol reader finds its input cut (a TCP stream may
 * cut it anywhere). Unlike {@link java.io.PipedInputStream} it does not fail when the writing
 * thread ends, and a write never blocks.
 */
public final class BytePipe {

    private static final byte[] END = new byte[0];

    private final BlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private volatile boolean ended;

    private final InputStream in = new InputStream() {
        private byte[] chunk = new byte[0];
        private int position;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (position == chunk.length) {
                if (chunk == END) {
                    return -1;
                }
                try {
                    chunk = chunks.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while reading a test pipe");
                }
                position = 0;
            }
            int n = Math.min(len, chunk.length - position);
            System.arraycopy(chunk, position, b, off, n);
            position += n;
            return n;
        }
    };

    private final OutputStream out = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (ended) {
                throw new IOException("Broken pipe");
            }
            if (len > 0) {
                byte[] chunk = new byte[len];
                System.arraycopy(b, off, chunk, 0, len);
                chunks.add(chunk);
            }
        }
    };

    /** The reading end: blocks until a chunk is written; -1 after {@link #end()} and what came before it. */
    public InputStream in() {
        return in;
    }

    /** The writing end: each write is one chunk; fails after {@link #end()}. */
    public OutputStream out() {
        return out;
    }

    /** Writes {@code bytes} as chunks cut before each of {@code cuts}, which must ascend. */
    public void write(byte[] bytes, int... cuts) {
        int from = 0;
        for (int cut : cuts) {
            chunks.add(Arrays.copyOfRange(bytes, from, cut));
            from = cut;
        }
        chunks.add(Arrays.copyOfRange(bytes, from, bytes.length));
    }

    /** Writes {@code bytes} one byte a chunk. */
    public void writeByteByByte(byte[] bytes) {
        for (byte b : bytes) {
            chunks.add(new byte[] {b});
        }
    }

    /** The writer hangs up: the reader gets what was written, then the end of the stream. */
    public void end() {
        ended = true;
        chunks.add(END);
    }
}
