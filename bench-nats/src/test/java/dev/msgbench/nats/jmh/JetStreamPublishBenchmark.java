package dev.msgbench.nats.jmh;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
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

import dev.msgbench.core.payload.BodySource;
import dev.msgbench.core.payload.RandomPayloads;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;
import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.api.PublishAck;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;

/**
 * JetStream publish against a real local nats-server: {@link #publishAsync} with a bound on
 * unacknowledged messages (as the adapter has, so the client never buffers without limit) and
 * {@link #publish}, which waits for the stream's acknowledgement each time. Full set:
 * {@code -p storage=memory,file}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class JetStreamPublishBenchmark {

    /** Outstanding async publishes; the adapter's default bound. */
    private static final int MAX_PENDING = 4_096;
    private static final String SUBJECT = "jmh.js";

    @Param({"100", "1024", "65536"})
    int payloadBytes;

    @Param({"file"})
    String storage;

    private LocalNatsServer server;
    private Connection connection;
    private JetStream jetStream;
    private final Semaphore pending = new Semaphore(MAX_PENDING);
    private RandomPayloads payloads;
    private BodySource bodies;
    private byte[] message;

    @Setup(Level.Trial)
    public void start() throws Exception {
        server = LocalNatsServer.start(NatsServerSpec.defaults().withJetStream(true));
        connection = Nats.connect(new Options.Builder().server(server.url()).connectionName("msgbench-jmh").build());
        connection.jetStreamManagement().addStream(StreamConfiguration.builder().name("JMH").subjects(SUBJECT)
                .storageType("memory".equals(storage) ? StorageType.Memory : StorageType.File)
                // a trial publishes gigabytes of 64 KiB messages: keep the newest, drop the rest
                .maxBytes(256L << 20)
                .build());
        jetStream = connection.jetStream();
        payloads = new RandomPayloads(payloadBytes, 1);
        bodies = payloads.source(2);
        message = payloads.newMessage();
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        try {
            pending.acquire(MAX_PENDING); // every acknowledgement in before the server goes
            connection.close();
        } finally {
            server.close();
        }
    }

    /* Hand one message over, waiting only when MAX_PENDING are unacknowledged. */
    @Benchmark
    public CompletableFuture<PublishAck> publishAsync() throws Exception {
        bodies.refill(message);
        pending.acquire();
        CompletableFuture<PublishAck> ack = jetStream.publishAsync(SUBJECT, message.clone());
        ack.whenComplete((a, e) -> pending.release());
        return ack;
    }

    /* Publish and wait for the stream's acknowledgement. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public PublishAck publish() throws Exception {
        bodies.refill(message);
        return jetStream.publish(SUBJECT, message.clone());
    }
}
