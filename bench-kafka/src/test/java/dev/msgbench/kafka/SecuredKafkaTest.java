package dev.msgbench.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.security.TlsFiles;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.kafka.broker.KafkaClusterSpec;
import dev.msgbench.kafka.broker.LocalKafkaCluster;

/** A local cluster with --secure's TLS (mutual) and login, one for the whole class: starting one takes long. */
@NeedsBroker
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SecuredKafkaTest {

    private static LocalKafkaCluster cluster;

    @BeforeAll
    static void startSecuredCluster() {
        cluster = LocalKafkaCluster.start(KafkaClusterSpec.of(BrokerSpec.defaults()
                .withSecurity(BrokerSecurity.generated().withMutualTls(true))));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aClientWithTheLoginGetsAMessageThroughWithScramAndWithPlain() throws Exception {
        ClientSecurity login = cluster.clientSecurity();
        Properties producerProps = new Properties();
        producerProps.putAll(KafkaClientSecurity.props(login, "PLAIN"));
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.url());
        Properties consumerProps = new Properties();
        consumerProps.putAll(KafkaClientSecurity.props(login, "SCRAM-SHA-512"));
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.url());
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "secured");
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");

        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer());
             KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer())) {
            producer.send(new ProducerRecord<>("secured", "over TLS")).get(30, TimeUnit.SECONDS);
            consumer.subscribe(List.of("secured"));
            String received = null;
            while (received == null) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                received = records.isEmpty() ? null : records.iterator().next().value();
            }
            assertEquals("over TLS", received);
        }
    }

    @Test
    void theAdapterRunsItsRunThroughTheSecuredListener() throws Exception {
        try (KafkaSystem system = new KafkaSystem(settings().withSecurity(cluster.clientSecurity(), null))) {
            system.prepare(new RunPlan("secured-run", 128, 1, 1));
            assertEquals("mutual TLS, user msgbench, password (SCRAM-SHA-512)", system.info().settings().get("security"));
        }
    }

    @Test
    void aWrongPasswordIsOneLineNamingTheUserAndTheMechanism() {
        ClientSecurity wrong = cluster.clientSecurity().withLogin("msgbench", Secret.of("not-the-password"));
        KafkaSystem system = new KafkaSystem(settings().withSecurity(wrong, "SCRAM-SHA-512"));

        UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("refused", 128, 1, 1)));

        assertEquals("kafka at " + cluster.url() + " refused the login of user 'msgbench' (SCRAM-SHA-512): wrong user "
                + "or password", e.getMessage());
    }

    @Test
    void aServerCertificateFromAnUnknownAuthorityIsOneLineAskingForTheCa() {
        ClientSecurity untrusted = cluster.clientSecurity().withTls(TlsFiles.DEFAULT_TRUST);
        KafkaSystem system = new KafkaSystem(settings().withSecurity(untrusted, null));

        UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("untrusted", 128, 1, 1)));

        assertEquals("kafka at " + cluster.url() + ": certificate not trusted: give --ca with the authority that "
                + "signed it", e.getMessage());
    }

    @Test
    void aClientWithoutACertificateOnAMutualTlsClusterIsOneLineAskingForOne() {
        ClientSecurity noCert = cluster.clientSecurity().withTls(new TlsFiles(cluster.localSecurity().pki().caFile(), null, null));
        KafkaSystem system = new KafkaSystem(settings().withSecurity(noCert, null));

        UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("no-cert", 128, 1, 1)));

        assertEquals("kafka at " + cluster.url() + ": the TLS handshake failed (Received fatal alert: bad_certificate); "
                + "if the broker demands a client certificate, give --client-cert and --client-key", e.getMessage());
    }

    @Test
    void aLoginWithoutTlsTimesOutWithAHintToGiveTheCa() {
        KafkaSystem system = new KafkaSystem(settings().withSecurity(cluster.clientSecurity().withTls(null), null));

        UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("plaintext", 128, 1, 1)));

        assertEquals("--bootstrap-servers: no Kafka broker answered at " + cluster.url() + " within 8 s (the login went "
                + "in plaintext: give --ca if the broker speaks TLS); check the address, or omit the flag to start a "
                + "local broker", e.getMessage());
    }

    @Test
    void theKeysAndThePasswordAreReadableByTheOwnerOnly() throws Exception {
        assertNotNull(cluster.localSecurity());
        for (var file : List.of(cluster.localSecurity().passwordFile(), cluster.localSecurity().pki().serverKeyFile(),
                cluster.localSecurity().pki().dir().resolve("server-keystore.pem"))) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)), file.toString());
        }
        assertTrue(cluster.url().startsWith("127.0.0.1:"), cluster.url());
    }

    private static KafkaSettings settings() {
        return new KafkaSettings(cluster.url(), Acks.ALL, 1, 0, Map.of(), Map.of(), CommitMode.AUTO,
                Duration.ofMillis(100), cluster.version(), Duration.ofSeconds(8), false);
    }
}
