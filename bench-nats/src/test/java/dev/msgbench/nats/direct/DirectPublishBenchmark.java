package dev.msgbench.nats.direct;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.payload.BodySource;
import dev.msgbench.core.payload.RandomPayloads;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;
import dev.msgbench.nats.wire.WireConnection;

/**
 * {@code --nats-client direct}'s publish path against a real local nats-server, beside
 * {@code jmh.NatsCorePublishBenchmark}'s jnats figures with the same parameters: {@link #publish}
 * gathers messages sent back to back and writes 64 KiB at a time, as a producer behind its
 * schedule or unpaced does; {@link #publishAndFlush} writes each one and waits for the PONG, as a
 * producer on schedule plus a round trip.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class DirectPublishBenchmark {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Param({"100", "1024", "65536"})
    int payloadBytes;

    private LocalNatsServer server;
    private DirectPublisher publisher;
    private RandomPayloads payloads;
    private BodySource bodies;
    private byte[] message;
    private long sequence;

    @Setup(Level.Trial)
    public void start() throws Exception {
        server = LocalNatsServer.start(NatsServerSpec.defaults().withJetStream(false));
        FirstFailure failures = new FirstFailure();
        publisher = new DirectPublisher(WireConnection.open(server.url(), 0, "msgbench-jmh", TIMEOUT, false, failures), failures,
                "jmh.direct", null, null);
        payloads = new RandomPayloads(payloadBytes, 1);
        bodies = payloads.source(2);
        message = payloads.newMessage();
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        try {
            publisher.flush();
            publisher.close();
        } finally {
            server.close();
        }
    }

    /* One message gathered; every 64 KiB one socket write. No copy: the writer copies into its buffer. */
    @Benchmark
    public long publish() throws Exception {
        bodies.refill(message);
        publisher.publish(message, sequence, 0);
        return sequence++;
    }

    /* One message written, then a PING: the server has read it when the PONG comes back. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long publishAndFlush() throws Exception {
        long s = publish();
        publisher.flush();
        return s;
    }
}
