package dev.msgbench.cli.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.msgbench.cli.Io;
import dev.msgbench.cli.Main;
import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.TakesSeconds;

/** --metrics-port on the command line: served while the run goes, closed when it ends, refused where it cannot work. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MetricsPortCommandLineTest {

    @TempDir
    Path dir;

    @Test
    @TakesSeconds
    void theEndpointServesTheRunWhileItGoesAndIsClosedAfterIt() throws Exception {
        BlockingQueue<String> errLines = new LinkedBlockingQueue<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Io io = new Io(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new Lines(errLines), true, StandardCharsets.UTF_8), false);
        Path results = dir.resolve("run");
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> Main.run(io, "e2e", "--system", "loopback",
                "--metrics-port", "0", "--rate", "500", "--warmup", "0", "--duration", "2s", "--progress-interval", "1s",
                "--output", results.toString()));

        String url = null;
        Scrape during = null;
        // the run's own lines are the events: the url first, then a progress line a second
        while (during == null) {
            String line = errLines.poll(20, TimeUnit.SECONDS);
            assertNotNull(line, "the run printed nothing within 20 s");
            if (line.startsWith("metrics at ")) {
                url = line.substring("metrics at ".length(), line.indexOf(" (--metrics-port)"));
            } else if (line.startsWith("progress: ")) {
                // the run goes on until its summary: the endpoint is still up (which phase it shows
                // depends on how busy the machine is; PrometheusFiguresTest checks each phase)
                during = Scrape.of(url);
            }
        }
        assertEquals(0, exit.get(20, TimeUnit.SECONDS), out.toString(StandardCharsets.UTF_8));

        assertTrue(url.matches("http://127\\.0\\.0\\.1:\\d+/metrics"), url);
        Scrape scrape = during;
        assertEquals(1, Stream.of("warm-up", "measured", "drain", "done")
                .mapToDouble(p -> scrape.value("msgbench_phase{msgbench_phase=\"" + p + "\"}")).sum(), scrape.text());
        assertTrue(scrape.withName("msgbench_run_info").contains("command=\"e2e\""), scrape.text());
        assertTrue(scrape.value("msgbench_sent_total") > 0, scrape.text());
        JsonNode counts = ResultFiles.json().readTree(results.resolve("result.json").toFile()).get("counts");
        assertTrue(scrape.value("msgbench_sent_total") <= counts.get("sent").asDouble(), scrape.text());
        String closed = url;
        assertThrows(ConnectException.class, () -> Scrape.of(closed));
    }

    @Test
    void aPortInUseIsOneLineNamingTheFlag() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            Run run = Run.of("e2e", "--system", "loopback", "--metrics-port", Integer.toString(port), "--duration",
                    "1s", "--output", dir.resolve("taken").toString());

            assertEquals(2, run.exit, run.err);
            assertEquals("error: --metrics-port " + port + ": cannot listen on 127.0.0.1:" + port
                    + " (Address already in use); give a free port, or 0 for any free one\n", run.err);
        }
    }

    @Test
    void isolateIsRefusedWithTheReason() {
        Run run = Run.of("e2e", "--system", "nats", "--isolate", "--metrics-port", "9400", "--output",
                dir.resolve("isolated").toString());

        assertEquals(2, run.exit, run.err);
        assertEquals("error: --metrics-port with --isolate: the run goes on inside a network namespace of its own, out "
                + "of this host's reach; run without --isolate to watch it live (see java -jar bench-all.jar e2e --help)\n", run.err);
    }

    @Test
    void aBindAddressWithoutAPortIsRefused() {
        Run run = Run.of("throughput", "--system", "loopback", "--metrics-bind", "0.0.0.0", "--output",
                dir.resolve("bind").toString());

        assertEquals(2, run.exit, run.err);
        assertEquals("error: --metrics-bind sets where --metrics-port listens; add --metrics-port "
                + "(see java -jar bench-all.jar throughput --help)\n", run.err);
    }

    private record Run(int exit, String err) {
        static Run of(String... args) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = Main.run(new Io(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), false), args);
            return new Run(exit, err.toString(StandardCharsets.UTF_8));
        }
    }

    /** Hands each line written to it to a queue as it is ended. */
    private static final class Lines extends OutputStream {
        private final BlockingQueue<String> lines;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        Lines(BlockingQueue<String> lines) {
            this.lines = lines;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            if (b == '\n') {
                lines.add(line.toString(StandardCharsets.UTF_8));
                line.reset();
            } else {
                line.write(b);
            }
        }
    }
}
