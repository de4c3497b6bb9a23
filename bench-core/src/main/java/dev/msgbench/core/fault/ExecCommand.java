package dev.msgbench.core.fault;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Runs an exec fault's command with {@code sh -c}, stdout and stderr together, and keeps its
 * exit status and the first few KiB of its output. A command still running after its timeout is
 * killed, with everything it started.
 */
final class ExecCommand {

    static final int OUTPUT_LIMIT_BYTES = 4096;
    /** How long to wait for the output after the command ended: a child it left behind may hold the pipe. */
    private static final long OUTPUT_GRACE_MILLIS = 1_000;

    /** @param exitStatus null when the command was killed after its timeout */
    record Result(Integer exitStatus, String output) {
    }

    private ExecCommand() {
    }

    static Result run(String command, Duration timeout) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        BoundedOutput output = new BoundedOutput(process.getInputStream());
        Thread reader = new Thread(output, "msgbench-fault-exec-output");
        reader.setDaemon(true);
        reader.start();
        try {
            if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                destroyTree(process);
                reader.join(OUTPUT_GRACE_MILLIS);
                return new Result(null, output.text());
            }
        } catch (InterruptedException e) {
            destroyTree(process);
            throw e;
        }
        reader.join(OUTPUT_GRACE_MILLIS);
        return new Result(process.exitValue(), output.text());
    }

    private static void destroyTree(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /** Keeps the first bytes of a stream and counts the rest, reading it to its end so the writer never blocks. */
    private static final class BoundedOutput implements Runnable {
        private final InputStream in;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private long dropped;
        private String readError;

        BoundedOutput(InputStream in) {
            this.in = in;
        }

        @Override
        public void run() {
            byte[] buffer = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    synchronized (this) {
                        int keep = Math.min(n, OUTPUT_LIMIT_BYTES - kept.size());
                        kept.write(buffer, 0, keep);
                        dropped += n - keep;
                    }
                }
            } catch (IOException e) {
                // the command was killed and its pipe closed under us: what was read is kept, and why it stops
                synchronized (this) {
                    readError = e.getMessage();
                }
            }
        }

        synchronized String text() {
            String text = kept.toString(StandardCharsets.UTF_8);
            if (dropped > 0) {
                text += "... (" + dropped + " more bytes)";
            }
            return readError == null ? text : text + " (output cut: " + readError + ")";
        }
    }
}
