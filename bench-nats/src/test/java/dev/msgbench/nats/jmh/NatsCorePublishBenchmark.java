package dev.msgbench.nats.jmh;

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

import dev.msgbench.core.payload.BodySource;
import dev.msgbench.core.payload.RandomPayloads;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;

/**
 * jnats core publish against a real local nats-server (started once per trial by the runner's
 * launcher). Core NATS has no acknowledgement: {@link #publish} measures how fast the client
 * hands messages to its outgoing buffer and socket; {@link #publishAndFlush} waits for the
 * server's PONG after each one, the shortest round trip the protocol has.
 *
 * <p>No subscriber: the server drops messages no one listens to after parsing them, which
 * keeps this about the publish path. A subscriber's cost is the e2e command's business.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class NatsCorePublishBenchmark {

    private static final Duration FLUSH_TIMEOUT = Duration.ofSeconds(10);

    @Param({"100", "1024", "65536"})
    int payloadBytes;

    private LocalNatsServer server;
    private Connection connection;
    private RandomPayloads payloads;
    private BodySource bodies;
    private byte[] message;

    @Setup(Level.Trial)
    public void start() throws Exception {
        server = LocalNatsServer.start(NatsServerSpec.defaults().withJetStream(false));
        connection = Nats.connect(new Options.Builder().server(server.url()).connectionName("msgbench-jmh").build());
        payloads = new RandomPayloads(payloadBytes, 1);
        bodies = payloads.source(2);
        message = payloads.newMessage();
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        try {
            connection.close();
        } finally {
            server.close();
        }
    }

    /* One message handed to the client; a copy, as the adapter makes (jnats keeps the array). */
    @Benchmark
    public byte[] publish() {
        bodies.refill(message);
        byte[] copy = message.clone();
        connection.publish("jmh.core", copy);
        return copy;
    }

    /* One message, then a flush: the server has read it when the PONG comes back. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public byte[] publishAndFlush() throws Exception {
        byte[] copy = publish();
        connection.flush(FLUSH_TIMEOUT);
        return copy;
    }
}
