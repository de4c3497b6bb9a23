package dev.msgbench.core.floor;

import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.time.NanoClock;
import dev.msgbench.core.time.UniformSchedule;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * The floor under every end-to-end figure on this machine: a TCP round trip over loopback,
 * paced and measured as a run is. A message through a broker crosses loopback twice (producer to
 * broker, broker to consumer) and wakes two threads, as one exchange here does (the echo side's
 * reader, then ours), so a system's end-to-end p50 near this floor has nothing left to gain on
 * the receive path.
 *
 * <p>Open loop like a run: one thread sends on a {@link UniformSchedule}, another reads the
 * echoes, and each round trip counts from the intended send time in the message's own
 * {@link PayloadHeader}, so a slow echo delays no later send. Only what loopback and the
 * kernel's scheduling cost is in it: no broker, no client library.
 */
public final class PingPongFloor {

    /** How long the echoes of the last sends may take before they count as unanswered. */
    private static final Duration DRAIN = Duration.ofSeconds(5);

    /**
     * @param sizeBytes       each message, header included, as e2e's --size
     * @param rateMsgsPerSec  exchanges per second
     */
    public record Settings(int sizeBytes, double rateMsgsPerSec, Duration warmup, Duration duration) {

        public Settings {
            if (sizeBytes < PayloadHeader.BYTES) {
                throw new IllegalArgumentException("size must be at least " + PayloadHeader.BYTES + " bytes: " + sizeBytes);
            }
            if (!(rateMsgsPerSec > 0)) {
                throw new IllegalArgumentException("rate must be positive: " + rateMsgsPerSec);
            }
        }
    }

    /**
     * @param roundTrip   from each measured message's intended send time to its echo's arrival
     * @param serviceTime from its actual send to the echo's arrival
     * @param sent        measured messages sent (warm-up excluded)
     * @param answered    of those, echoes received
     */
    public record Outcome(Histogram roundTrip, Histogram serviceTime, long sent, long answered) {
    }

    private PingPongFloor() {
    }

    public static Outcome measure(Settings settings, NanoClock clock) throws IOException, InterruptedException {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread echo = daemon("floor-echo", () -> echoOne(server), failure);
            echo.start();
            try (Socket client = new Socket()) {
                client.setTcpNoDelay(true);
                client.connect(server.getLocalSocketAddress());
                return exchange(settings, clock, client, failure);
            } finally {
                server.close();
                echo.join(DRAIN.toMillis());
            }
        }
    }

    private static Outcome exchange(Settings settings, NanoClock clock, Socket client, AtomicReference<Throwable> failure)
            throws IOException, InterruptedException {
        long start = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        long measuredFrom = start + settings.warmup().toNanos();
        long end = measuredFrom + settings.duration().toNanos();
        EchoReader reader = new EchoReader(client.getInputStream(), settings.sizeBytes(), measuredFrom, clock);
        Thread readerThread = daemon("floor-reader", reader, failure);
        readerThread.start();

        byte[] message = new byte[settings.sizeBytes()];
        new SplittableRandom(1).nextBytes(message);
        OutputStream out = client.getOutputStream();
        UniformSchedule schedule = new UniformSchedule(start, settings.rateMsgsPerSec());
        long sent = 0;
        for (long intended = schedule.next(); intended < end && failure.get() == null; intended = schedule.next()) {
            clock.sleepUntil(intended);
            PayloadHeader.write(message, 1, 0, sent, intended);
            PayloadHeader.stampSendTime(message, clock.nanoTime());
            out.write(message);
            if (intended >= measuredFrom) {
                sent++;
            }
        }
        client.shutdownOutput();
        readerThread.join(DRAIN.toMillis());
        client.close();
        readerThread.join();
        Throwable error = failure.get();
        if (error != null) {
            throw new IOException("the loopback ping-pong failed: " + error, error);
        }
        return new Outcome(reader.roundTrip, reader.serviceTime, sent, reader.answered);
    }

    /** The far side: returns every byte as it comes, until the client stops sending. */
    private static void echoOne(ServerSocket server) throws IOException {
        try (Socket socket = server.accept()) {
            socket.setTcpNoDelay(true);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] buffer = new byte[64 * 1024];
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
            }
        }
    }

    private static final class EchoReader implements IoTask {
        final Histogram roundTrip = Recorders.newHistogram();
        final Histogram serviceTime = Recorders.newHistogram();
        private final DataInputStream in;
        private final byte[] frame;
        private final long measuredFrom;
        private final NanoClock clock;
        volatile long answered;

        EchoReader(InputStream in, int sizeBytes, long measuredFrom, NanoClock clock) {
            this.in = new DataInputStream(in);
            this.frame = new byte[sizeBytes];
            this.measuredFrom = measuredFrom;
            this.clock = clock;
        }

        @Override
        public void run() throws IOException {
            while (readFrame()) {
                long now = clock.nanoTime();
                long intended = PayloadHeader.intendedNanos(frame, 0);
                if (intended >= measuredFrom) {
                    roundTrip.recordValue(Math.max(0, now - intended));
                    serviceTime.recordValue(Math.max(0, now - PayloadHeader.sentNanos(frame, 0)));
                    answered++;
                }
            }
        }

        /** False at the end of the stream, or when the socket was closed after the drain. */
        private boolean readFrame() throws IOException {
            try {
                in.readFully(frame);
                return true;
            } catch (java.io.EOFException | java.net.SocketException closed) {
                return false;
            }
        }
    }

    private interface IoTask {
        void run() throws IOException;
    }

    private static Thread daemon(String name, IoTask task, AtomicReference<Throwable> failure) {
        Thread thread = new Thread(() -> {
            try {
                task.run();
            } catch (IOException | RuntimeException e) {
                failure.compareAndSet(null, e);
            }
        }, name);
        thread.setDaemon(true);
        return thread;
    }
}
