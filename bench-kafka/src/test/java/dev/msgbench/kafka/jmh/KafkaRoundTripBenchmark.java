package dev.msgbench.kafka.jmh;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
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

/**
 * One acknowledged send at a time: {@code send().get()}, as a distribution (sample time). Where
 * throughput mode hides the wait behind batching, this shows the broker's acknowledgement cost
 * for acks 1 and all. (acks 0 has no acknowledgement to wait for.) Full sizes: -p payloadBytes=100,1024,65536.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class KafkaRoundTripBenchmark {

    @Param({"1024"})
    int payloadBytes;

    @Param({"1", "all"})
    String acks;

    private KafkaBroker broker;
    private KafkaProducer<byte[], byte[]> producer;
    private RandomPayloads payloads;
    private BodySource bodies;

    @Setup(Level.Trial)
    public void start() throws Exception {
        broker = new KafkaBroker();
        producer = broker.producer(Map.of(ProducerConfig.ACKS_CONFIG, acks, ProducerConfig.LINGER_MS_CONFIG, 0,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "all".equals(acks)));
        payloads = new RandomPayloads(payloadBytes, 1);
        bodies = payloads.source(2);
    }

    @TearDown(Level.Trial)
    public void stop() {
        try {
            producer.close();
        } finally {
            broker.close();
        }
    }

    /* Send and wait for the broker's acknowledgement. */
    @Benchmark
    public RecordMetadata sendAndAwaitAck() throws Exception {
        byte[] value = payloads.newMessage();
        bodies.refill(value);
        return producer.send(new ProducerRecord<>(broker.topic, value)).get();
    }
}
