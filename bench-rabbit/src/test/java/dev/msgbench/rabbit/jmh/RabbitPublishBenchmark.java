package dev.msgbench.rabbit.jmh;

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

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import dev.msgbench.core.payload.BodySource;
import dev.msgbench.core.payload.RandomPayloads;
import dev.msgbench.rabbit.broker.LocalRabbitMq;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;

/**
 * amqp-client {@code basicPublish} against a real local RabbitMQ node (started once per trial
 * by the runner's launcher; it takes about 5 s). {@link #basicPublish}, without confirms,
 * returns once the frame is written to the socket; {@link #publishConfirmed}, on a channel in
 * confirm mode, waits for the broker's confirm of each message, the shortest confirmed round
 * trip.
 *
 * <p>The queue is a classic, non-durable one with a length limit: an unconsumed queue would
 * otherwise grow by gigabytes in a trial and trip the node's memory alarm, which blocks
 * publishers and would measure the alarm, not the client.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class RabbitPublishBenchmark {

    private static final String QUEUE = "jmh";
    private static final AMQP.BasicProperties PROPERTIES = new AMQP.BasicProperties();

    @Param({"100", "1024", "65536"})
    int payloadBytes;

    private LocalRabbitMq broker;
    private Connection connection;
    private Channel channel;
    private Channel confirmed;
    private RandomPayloads payloads;
    private BodySource bodies;
    private byte[] message;

    @Setup(Level.Trial)
    public void start() throws Exception {
        broker = LocalRabbitMq.start(RabbitBrokerSpec.defaults());
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(broker.url());
        connection = factory.newConnection("msgbench-jmh");
        channel = connection.createChannel();
        channel.queueDeclare(QUEUE, false, false, false, java.util.Map.of("x-max-length", 10_000, "x-overflow", "drop-head"));
        confirmed = connection.createChannel();
        confirmed.confirmSelect();
        payloads = new RandomPayloads(payloadBytes, 1);
        bodies = payloads.source(2);
        message = payloads.newMessage();
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        try {
            connection.close();
        } finally {
            broker.close();
        }
    }

    /* One message, no confirms: written to the socket. */
    @Benchmark
    public byte[] basicPublish() throws Exception {
        bodies.refill(message);
        channel.basicPublish("", QUEUE, false, PROPERTIES, message);
        return message;
    }

    /* One message and the broker's confirm of it. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public byte[] publishConfirmed() throws Exception {
        bodies.refill(message);
        confirmed.basicPublish("", QUEUE, false, PROPERTIES, message);
        confirmed.waitForConfirmsOrDie(10_000);
        return message;
    }
}
