package dev.msgbench.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.apache.pulsar.client.api.CompressionType;
import org.apache.pulsar.client.api.Schema;
import org.apache.pulsar.client.api.SubscriptionType;
import org.apache.pulsar.client.impl.ProducerBuilderImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.security.TlsFiles;
import picocli.CommandLine.TypeConversionException;

/** The mapping of --acks and the refusals of Pulsar's flags, with no broker. */
class PulsarTargetTest {

    @Test
    void acksChooseTheAckQuorumAndZeroIsRefused() {
        assertEquals(1, PulsarAcks.ackQuorum(Acks.BROKER, 3));
        assertEquals(3, PulsarAcks.ackQuorum(Acks.ALL, 3));
        assertEquals(1, PulsarAcks.ackQuorum(Acks.ALL, 1), "one bookie: all is one");
        UserError zero = assertThrows(UserError.class, () -> new PulsarTarget().validate(Acks.NONE, 1));
        assertEquals("--acks 0: a Pulsar producer always waits for the bookies' ack quorum; use --acks 1 (ack quorum "
                + "1) or all (ack quorum = write quorum), or leave it out for the broker's default", zero.getMessage());
    }

    @Test
    void aLocalPulsarOfTwoBrokersAndANegativePartitionCountAreRefusedBeforeAnyBrokerStarts() {
        PulsarTarget target = new PulsarTarget();
        target.validate(null, 3);
        target.validate(null, 0); // --url: no local broker
        UserError cluster = assertThrows(UserError.class, () -> target.validate(null, 2));
        assertEquals("--brokers 2: a local Pulsar is one standalone (--brokers 1) or a cluster of 3 brokers and 3 "
                + "bookies (--brokers 3); use one of them, or --url", cluster.getMessage());
        target.partitions = -1;
        UserError partitions = assertThrows(UserError.class, () -> target.validate(null, 1));
        assertEquals("--pulsar-partitions must be 0 (a non-partitioned topic) to 1000, got -1", partitions.getMessage());
    }

    @Test
    void aCodecIsOneOfPulsarsInEitherCase() {
        PulsarTarget.CompressionConverter codecs = new PulsarTarget.CompressionConverter();
        assertEquals(CompressionType.LZ4, codecs.convert("lz4"));
        assertEquals(CompressionType.ZSTD, codecs.convert("ZSTD"));
        assertEquals("must be NONE, LZ4, ZLIB, ZSTD or SNAPPY, got 'brotli'",
                assertThrows(TypeConversionException.class, () -> codecs.convert("brotli")).getMessage());
    }

    @Test
    void theSendTimeoutIsSetOnTheProducerInMillisecondsAndZeroIsNever() {
        PulsarTarget.SendTimeoutConverter timeouts = new PulsarTarget.SendTimeoutConverter();
        assertEquals(Duration.ofSeconds(30), timeouts.convert("30s").timeout());
        assertEquals(PulsarSendTimeout.DEFAULT, timeouts.convert("30s"));
        assertEquals("2m", timeouts.convert("2m").toString());
        assertEquals("0 (never)", timeouts.convert("0").toString());
        assertEquals(120_000L, sendTimeoutMs(timeouts.convert("2m")));
        assertEquals(0L, sendTimeoutMs(timeouts.convert("0")), "pulsar-client reads 0 as never");
        assertEquals(30_000L, sendTimeoutMs(PulsarSendTimeout.DEFAULT));
        assertEquals("must be 0 (never) or a time in whole milliseconds such as 30s or 500ms, got '500us'",
                assertThrows(TypeConversionException.class, () -> timeouts.convert("500us")).getMessage());
        assertEquals("must be 0 (never) or a time in whole milliseconds such as 30s or 500ms, got 'soon'",
                assertThrows(TypeConversionException.class, () -> timeouts.convert("soon")).getMessage());
    }

    /** What a producer built with {@code timeout} would have, without a client. */
    private static long sendTimeoutMs(PulsarSendTimeout timeout) {
        ProducerBuilderImpl<byte[]> builder = new ProducerBuilderImpl<>(null, Schema.BYTES);
        timeout.applyTo(builder);
        return builder.getConf().getSendTimeoutMs();
    }

    @Test
    void batchingIsOffDefaultOrTheLongestDelay() {
        assertEquals(PulsarBatching.OFF, PulsarBatching.parse("off"));
        assertEquals(PulsarBatching.DEFAULT, PulsarBatching.parse("default"));
        assertEquals(new PulsarBatching(true, Duration.ofNanos(100_000)), PulsarBatching.parse("100us"));
        assertEquals("100us", PulsarBatching.parse("100us").toString());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> PulsarBatching.parse("fast"));
        assertEquals("must be off, default or the longest delay of a batch such as 100us or 5ms, got 'fast'",
                bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PulsarBatching.parse("0ms"));
    }

    @Test
    void subscriptionTypesAreNamedInLowerCase() {
        PulsarTarget.SubscriptionTypeConverter converter = new PulsarTarget.SubscriptionTypeConverter();
        assertEquals(SubscriptionType.Key_Shared, converter.convert("key_shared"));
        assertEquals(SubscriptionType.Failover, converter.convert("failover"));
        TypeConversionException bad = assertThrows(TypeConversionException.class, () -> converter.convert("Shared"));
        assertEquals("must be exclusive, shared, failover or key_shared, got 'Shared'", bad.getMessage());
    }

    @Test
    void theAdminApiOfABrokerGivenWithUrlIsOnPulsarsDefaultWebPort() {
        assertEquals("http://broker-1:8080", PulsarTarget.defaultAdminUrl("pulsar://broker-1:6650"));
        assertEquals("https://broker-1:8443", PulsarTarget.defaultAdminUrl("pulsar+ssl://broker-1:6651"));
        UserError bad = assertThrows(UserError.class, () -> PulsarTarget.defaultAdminUrl("http://broker-1:8080"));
        assertEquals("--url must be Pulsar's service URL, pulsar://HOST:PORT or pulsar+ssl://HOST:PORT, got "
                + "'http://broker-1:8080'", bad.getMessage());
    }

    @Test
    void tlsFilesNeedAPulsarSslUrlAndALoginNeedsBothUserAndPassword(@TempDir Path dir) throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.pem"), "unread here");
        ClientSecurity tls = ClientSecurity.NONE.withTls(new TlsFiles(ca, null, null));
        PulsarClientSecurity.check("pulsar+ssl://broker-1:6651", tls.withLogin("u", Secret.of("pw-unused-1")));

        UserError plain = assertThrows(UserError.class, () -> PulsarClientSecurity.check("pulsar://broker-1:6650", tls));
        assertEquals("--ca: TLS needs Pulsar's TLS URL, pulsar+ssl://HOST:6651, got --url 'pulsar://broker-1:6650'",
                plain.getMessage());
        UserError noPassword = assertThrows(UserError.class,
                () -> PulsarClientSecurity.check("pulsar+ssl://broker-1:6651", tls.withLogin("u", null)));
        assertEquals("--user needs --password-file (or --password-env) for Pulsar's basic authentication",
                noPassword.getMessage());
        UserError noUser = assertThrows(UserError.class, () -> PulsarClientSecurity.check("pulsar+ssl://broker-1:6651",
                tls.withLogin(null, Secret.of("pw-unused-2"))));
        assertEquals("--password-file needs --user for Pulsar's basic authentication (user and password)",
                noUser.getMessage());
    }

    @Test
    void secureIsForAStandaloneAndACluster() {
        PulsarTarget target = new PulsarTarget();

        assertEquals(null, target.secureRefused(1));
        assertEquals(null, target.secureRefused(3));
    }
}
