package dev.msgbench.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.driver.RunPlan;

class RedisAcksTest {

    @Test
    void withoutAcksTheReplyIsTheAcknowledgement() {
        assertEquals(RedisAcks.SERVER, RedisAcks.of(null));
        assertEquals(RedisAcks.SERVER, RedisSettings.defaults("redis://127.0.0.1:1").acks());
    }

    @Test
    void eachAcksValueHasItsRedisMeaningAndIsRecordedAsGiven() {
        assertEquals(RedisAcks.NONE, RedisAcks.of(Acks.NONE));
        assertEquals(RedisAcks.SERVER, RedisAcks.of(Acks.BROKER));
        assertEquals(RedisAcks.REPLICAS, RedisAcks.of(Acks.ALL));
        for (Acks acks : Acks.values()) {
            assertEquals(acks.flagValue(), RedisAcks.of(acks).flagValue());
        }
    }

    @Test
    void pubSubRefusesAcksAllBeforeConnectingSayingItKeepsNoMessage() {
        RedisPubSubSystem system = new RedisPubSubSystem(RedisSettings.defaults("redis://127.0.0.1:1")
                .withAcks(RedisAcks.of(Acks.ALL)));
        UserError e = assertThrows(UserError.class, () -> system.prepare(new RunPlan("msgbench-all", 100, 1, 1)));
        assertEquals("--acks all has no equivalent in Redis pub/sub: it keeps no message, so no replica holds one; "
                + "use --acks 1, or --system redis-streams", e.getMessage());
    }
}
