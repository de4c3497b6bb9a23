package dev.msgbench.redis.jmh;

import java.util.ArrayList;
import java.util.List;
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

import dev.msgbench.core.payload.BodySource;
import dev.msgbench.core.payload.RandomPayloads;
import dev.msgbench.redis.broker.LocalRedis;
import dev.msgbench.redis.broker.RedisBrokerSpec;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;

/**
 * lettuce PUBLISH and XADD against a real local redis-server (started once per trial by the
 * runner's launcher). Async: one command, wait for its reply (sample time: the round trip).
 * Pipelined: auto-flush off, {@link #BATCH} commands, one flush, then all replies (throughput,
 * per command).
 *
 * <p>PUBLISH has no subscriber here: Redis answers with the number of receivers (0) after
 * parsing, which keeps this about the publish path. XADD trims its stream to about
 * {@link #MAX_LEN} entries so that a trial does not fill the server's memory.
 */
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class RedisPublishBenchmark {

    static final int BATCH = 100;
    static final long MAX_LEN = 10_000;
    private static final byte[] CHANNEL = "jmh".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] STREAM = "jmh-stream".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] FIELD = "m".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @Param({"100", "1024", "65536"})
    int payloadBytes;

    private LocalRedis server;
    private RedisClient client;
    private StatefulRedisConnection<byte[], byte[]> connection;
    private RedisAsyncCommands<byte[], byte[]> commands;
    private RandomPayloads payloads;
    private BodySource bodies;
    private final XAddArgs trim = XAddArgs.Builder.maxlen(MAX_LEN).approximateTrimming();

    @Setup(Level.Trial)
    public void start() {
        server = LocalRedis.start(RedisBrokerSpec.defaults());
        client = RedisClient.create(server.url());
        connection = client.connect(ByteArrayCodec.INSTANCE);
        commands = connection.async();
        payloads = new RandomPayloads(payloadBytes, 1);
        bodies = payloads.source(2);
    }

    @TearDown(Level.Trial)
    public void stop() {
        try {
            connection.close();
            client.shutdown();
        } finally {
            server.close();
        }
    }

    private byte[] next() {
        byte[] message = payloads.newMessage(); // lettuce keeps the array until the command is written
        bodies.refill(message);
        return message;
    }

    /* PUBLISH and wait for its reply. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public Long publishAsync() throws Exception {
        return commands.publish(CHANNEL, next()).get();
    }

    /* XADD and wait for its reply. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public String xaddAsync() throws Exception {
        return commands.xadd(STREAM, trim, FIELD, next()).get();
    }

    /* BATCH PUBLISH commands in one flush. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(BATCH)
    public boolean publishPipelined() {
        List<RedisFuture<?>> replies = new ArrayList<>(BATCH);
        connection.setAutoFlushCommands(false);
        try {
            for (int i = 0; i < BATCH; i++) {
                replies.add(commands.publish(CHANNEL, next()));
            }
            connection.flushCommands();
        } finally {
            connection.setAutoFlushCommands(true);
        }
        return LettuceFutures.awaitAll(10, TimeUnit.SECONDS, replies.toArray(new RedisFuture[0]));
    }

    /* BATCH XADD commands in one flush. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(BATCH)
    public boolean xaddPipelined() {
        List<RedisFuture<?>> replies = new ArrayList<>(BATCH);
        connection.setAutoFlushCommands(false);
        try {
            for (int i = 0; i < BATCH; i++) {
                replies.add(commands.xadd(STREAM, trim, FIELD, next()));
            }
            connection.flushCommands();
        } finally {
            connection.setAutoFlushCommands(true);
        }
        return LettuceFutures.awaitAll(10, TimeUnit.SECONDS, replies.toArray(new RedisFuture[0]));
    }
}
