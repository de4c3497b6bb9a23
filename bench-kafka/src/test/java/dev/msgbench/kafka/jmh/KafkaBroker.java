package dev.msgbench.kafka.jmh;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.msgbench.kafka.broker.KafkaClusterSpec;
import dev.msgbench.kafka.broker.LocalKafkaCluster;

/**
 * The benchmarks' broker: the launcher the runner uses, one node, one fresh topic per trial.
 * Started in {@code @Setup(Level.Trial)}, so its start-up (seconds) never lands in a measurement.
 */
final class KafkaBroker implements AutoCloseable {

    final LocalKafkaCluster cluster;
    final String topic = "jmh-" + UUID.randomUUID();

    KafkaBroker() throws Exception {
        cluster = LocalKafkaCluster.start(KafkaClusterSpec.defaults());
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.url());
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
    }

    /** A producer with the given settings; serializers fixed, everything else the client's default. */
    KafkaProducer<byte[], byte[]> producer(Map<String, Object> settings) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.url());
        props.putAll(settings);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public void close() {
        cluster.close();
    }
}
