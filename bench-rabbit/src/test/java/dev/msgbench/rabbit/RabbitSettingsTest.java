package dev.msgbench.rabbit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;
import org.junit.jupiter.api.Test;

class RabbitSettingsTest {

    private static final RabbitSettings DEFAULTS = RabbitSettings.defaults("x:1");

    @Test
    void withoutAcksThereAreNoPublisherConfirmsAsInRabbitMqItself() {
        assertEquals(Acks.NONE, DEFAULTS.acks());
        assertEquals(Acks.NONE, DEFAULTS.withAcks(null).acks());
        assertFalse(DEFAULTS.confirms());
    }

    @Test
    void acksOneIsAConfirmFromAClassicQueueAndAllFromAQuorumQueue() {
        assertTrue(DEFAULTS.withQueueType(QueueType.DURABLE).withAcks(Acks.BROKER).confirms());
        assertTrue(DEFAULTS.withAcks(Acks.BROKER).confirms());
        assertTrue(DEFAULTS.withQueueType(QueueType.QUORUM).withAcks(Acks.ALL).confirms());
        assertFalse(DEFAULTS.withQueueType(QueueType.QUORUM).withAcks(Acks.NONE).confirms());
    }

    @Test
    void acksAllOnAQueueOfOneNodeIsRefused() {
        UserError transientQueue = assertThrows(UserError.class, () -> DEFAULTS.withAcks(Acks.ALL));
        assertEquals("--acks all needs --queue-type quorum: a transient queue lives on one node, so its confirm "
                + "means that node has the message (--acks 1)", transientQueue.getMessage());
        UserError durable = assertThrows(UserError.class,
                () -> RabbitSettings.checkAcks(Acks.ALL, QueueType.DURABLE));
        assertEquals("--acks all needs --queue-type quorum: a durable queue lives on one node, so its confirm "
                + "means that node has the message (--acks 1)", durable.getMessage());
    }

    @Test
    void acksOneOnAQuorumQueueIsRefused() {
        UserError e = assertThrows(UserError.class,
                () -> DEFAULTS.withQueueType(QueueType.QUORUM).withAcks(Acks.BROKER));
        assertEquals("--acks 1 has no equivalent with --queue-type quorum: a quorum queue confirms only once a "
                + "quorum of its replicas has the message; use --acks all", e.getMessage());
    }
}
