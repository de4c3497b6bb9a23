package dev.msgbench.rabbit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.rabbit.broker.RabbitBrokerSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --acks and the flags of rabbitmq-streams, checked before any broker starts. */
class RabbitStreamsTargetTest {

    private final RabbitMqTarget amqp = new RabbitMqTarget();
    private final RabbitStreamsTarget streams = new RabbitStreamsTarget(amqp);

    @TempDir
    Path dir;

    @Test
    void acksAllIsTheStreamsConfirmEverywhereAndAcksOneOnlyOnOneNode() {
        streams.validate(null, 3);
        streams.validate(Acks.ALL, 0);
        streams.validate(Acks.BROKER, 1);
        UserError e = assertThrows(UserError.class, () -> streams.validate(Acks.BROKER, 0));
        assertEquals("--acks 1 has no equivalent on rabbitmq-streams with more than one replica: a stream confirms a "
                + "publish once a quorum of its replicas has it; use --acks all", e.getMessage());
    }

    @Test
    void acksZeroIsRefusedSinceEveryPublishIsConfirmed() {
        UserError e = assertThrows(UserError.class, () -> streams.validate(Acks.NONE, 1));
        assertEquals("--acks 0 has no equivalent on rabbitmq-streams: the stream protocol confirms every publish; use "
                + "--acks all (the default)", e.getMessage());
    }

    @Test
    void maxUnconfirmedIsRabbitMqsFlagReadByStreamsToo() {
        amqp.maxUnconfirmed = 0;
        UserError e = assertThrows(UserError.class, () -> streams.validate(Acks.ALL, 1));
        assertEquals("--max-unconfirmed must be at least 1, got 0", e.getMessage());
        assertEquals(List.of("--max-unconfirmed", "--rabbitmq-bin"), streams.borrowedFlags());
    }

    @Test
    void superStreamsAreRefusedWithoutPartitionsAndWithUrlLeftToTheBrokersVersion() {
        streams.superStreamPartitions = 0;
        UserError e = assertThrows(UserError.class, () -> streams.validate(Acks.ALL, 0));
        assertEquals("--super-stream-partitions must be at least 1, got 0", e.getMessage());
        streams.superStreamPartitions = 2;
        streams.validate(Acks.ALL, 0);
    }

    @Test
    void rabbitMqBinChoosesTheInstallThatBothRabbitMqSystemsStart() {
        assertEquals(RabbitBrokerSpec.DEFAULT_INSTALL_DIR, amqp.brokerSpec(BrokerSpec.defaults()).installDir());
        amqp.rabbitmqBin = dir;
        assertEquals(dir, amqp.brokerSpec(BrokerSpec.defaults()).installDir());
    }

    @Test
    void rabbitMqBinWithUrlIsRefusedByBothSystemsSinceNoLocalBrokerStarts() {
        amqp.rabbitmqBin = dir;
        streams.validate(Acks.ALL, 1);
        String refused = "--rabbitmq-bin chooses the local RabbitMQ the suite starts, and with --url it starts none, "
                + "got --rabbitmq-bin " + dir + ": leave out one of the two";
        assertEquals(refused, assertThrows(UserError.class, () -> streams.validate(Acks.ALL, 0)).getMessage());
        assertEquals(refused, assertThrows(UserError.class, () -> amqp.validate(Acks.ALL, 0)).getMessage());
    }

    @Test
    void keysRouteOnlyOnSuperStreams() {
        RabbitStreamsSystem plain = new RabbitStreamsSystem(StreamSettings.defaults("rabbitmq-stream://127.0.0.1:1"), null);
        RabbitStreamsSystem partitioned = new RabbitStreamsSystem(
                StreamSettings.defaults("rabbitmq-stream://127.0.0.1:1").withSuperStreamPartitions(3), null);

        assertEquals("a stream is one log, so a key would change nothing in where a message goes; give "
                + "--super-stream-partitions N to route by key", plain.useKeys(RecordKeys.parse("random", 10)));
        assertNull(partitioned.useKeys(RecordKeys.parse("random", 10)));
    }

    @Test
    void versionsBefore311LackSuperStreamsAndAnUnknownOneIsGivenTheBenefit() {
        assertTrue(RabbitVersion.before("3.10.8", 3, 11));
        assertTrue(RabbitVersion.before("2.8.0", 3, 11));
        assertFalse(RabbitVersion.before("3.11.0", 3, 11));
        assertFalse(RabbitVersion.before("4.0.5", 3, 11));
        assertFalse(RabbitVersion.before("3.13.7+rc.1", 3, 11));
        assertFalse(RabbitVersion.before("unknown", 3, 11));
    }
}
