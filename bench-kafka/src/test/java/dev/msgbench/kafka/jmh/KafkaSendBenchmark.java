package dev.msgbench.kafka.jmh;

import java.util.Map;
import java.util.concurrent.Future;
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
 * Kafka's {@code send()} against a real local broker: how many records a second one producer
 * thread hands over, with the producer settings that decide it. send() returns before the
 * broker answers; once the client's buffer is full it blocks, so in a steady state the score
 * is what the client and broker sustain together, not only how fast the buffer fills.
 *
 * <p>The default {@code mvn verify -Pbench} run takes a subset, because every trial starts a
 * Kafka broker (seconds, tens of seconds on a loaded machine): every size, acks 1, no
 * compression, no linger. The full set: {@code -Djmh.args="-p acks=0,1,all
 * -p compression=none,lz4,zstd -p lingerMs=0,5 -p batchSize=16384,262144"}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class KafkaSendBenchmark {

    @Param({"100", "1024", "65536"})
    int payloadBytes;

    @Param({"1"})
    String acks;

    @Param({"none"})
    String compression;

    @Param({"0"})
    int lingerMs;

    @Param({"16384"})
    int batchSize;

    private KafkaBroker broker;
    private KafkaProducer<byte[], byte[]> producer;
    private RandomPayloads payloads;
    private BodySource bodies;

    @Setup(Level.Trial)
    public void start() throws Exception {
        broker = new KafkaBroker();
        producer = broker.producer(Map.of(ProducerConfig.ACKS_CONFIG, acks,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, compression,
                ProducerConfig.LINGER_MS_CONFIG, lingerMs,
                ProducerConfig.BATCH_SIZE_CONFIG, batchSize,
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 2 << 20,
                // idempotence needs acks=all; off, so that acks 0 and 1 are what they say
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

    /* One record handed to the client: a fresh random body each time, as in a run (Kafka keeps the array). */
    @Benchmark
    public Future<RecordMetadata> send() {
        byte[] value = payloads.newMessage();
        bodies.refill(value);
        return producer.send(new ProducerRecord<>(broker.topic, value));
    }
}
