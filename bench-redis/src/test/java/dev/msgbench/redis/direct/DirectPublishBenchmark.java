package dev.msgbench.redis.direct;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.payload.BodySource;
import dev.msgbench.core.payload.RandomPayloads;
import dev.msgbench.redis.RedisSettings;
import dev.msgbench.redis.broker.LocalRedis;
import dev.msgbench.redis.broker.RedisBrokerSpec;
import io.lettuce.core.RedisURI;

/**
 * {@code --redis-client direct}'s PUBLISH against a real local redis-server, beside
 * {@code jmh.RedisPublishBenchmark}'s lettuce figures with the same batch: {@link #publishPipelined}
 * writes {@link #BATCH} commands back to back and waits for every reply (throughput, per
 * command); {@link #publishAndAwaitReply} one command and its reply. No subscriber, so replies
 * are 0 and acknowledgements are not counted (acks=0), which keeps this about the publish path.
 * In this package because the client is package-private.
 */
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class DirectPublishBenchmark {

    static final int BATCH = 100;
    private static final byte[] CHANNEL = "jmh".getBytes(StandardCharsets.US_ASCII);
    private static final AckListener IGNORED = new AckListener() {
        @Override
        public void acked(long sequence, long intendedSendNanos) {
        }

        @Override
        public void failed(long sequence, long intendedSendNanos, Throwable error) {
            throw new IllegalStateException("PUBLISH failed in the benchmark", error);
        }
    };

    @Param({"100", "1024", "65536"})
    int payloadBytes;

    private LocalRedis server;
    private DirectPubSubPublisher publisher;
    private RandomPayloads payloads;
    private BodySource bodies;
    private byte[] message;
    private long sequence;

    @Setup(Level.Trial)
    public void start() throws Exception {
        server = LocalRedis.start(RedisBrokerSpec.defaults());
        // the adapter's in-flight limit is lower only for messages over 64 KiB, and never binds here:
        // at most BATCH commands await replies
        publisher = new DirectPubSubPublisher(DirectConnections.open(RedisURI.create(server.url()), "msgbench-jmh",
                Duration.ofSeconds(5)), new byte[][] {CHANNEL}, "jmh", IGNORED, Acks.NONE, RedisSettings.DEFAULT_MAX_IN_FLIGHT);
        payloads = new RandomPayloads(payloadBytes, 1);
        bodies = payloads.source(2);
        message = payloads.newMessage();
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        try {
            publisher.close();
        } finally {
            server.close();
        }
    }

    /* BATCH PUBLISH written back to back, then every reply awaited. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(BATCH)
    public long publishPipelined() throws Exception {
        for (int i = 0; i < BATCH; i++) {
            bodies.refill(message);
            publisher.publish(message, sequence++, 0);
        }
        publisher.flush();
        return sequence;
    }

    /* One PUBLISH and its reply. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long publishAndAwaitReply() throws Exception {
        bodies.refill(message);
        publisher.publish(message, sequence++, 0);
        publisher.flush();
        return sequence;
    }
}
