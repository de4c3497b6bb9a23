package dev.msgbench.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.UserError;

/** The checks made on what a server reports, without a server. */
class ServerFactsTest {

    private static ServerFacts facts(int replicas, Map<String, String> config) {
        return new ServerFacts("127.0.0.1:6379", "7.0.15", "master", replicas, config);
    }

    @Test
    void acksAllWithoutReplicasIsRefusedSayingWhatToDoInstead() {
        UserError e = assertThrows(UserError.class, () -> facts(0, Map.of()).requireReplicasFor(RedisAcks.REPLICAS));
        assertEquals("--acks all: the Redis at 127.0.0.1:6379 has no connected replicas (INFO replication "
                + "connected_slaves:0), so there is nothing to WAIT for; use --acks 1, or a local broker with --brokers 2",
                e.getMessage());
        facts(0, Map.of()).requireReplicasFor(RedisAcks.SERVER);
        facts(2, Map.of()).requireReplicasFor(RedisAcks.REPLICAS);
    }

    @Test
    void thePubSubHardLimitIsReadFromTheOutputBufferSetting() {
        assertEquals(33_554_432, facts(0, Map.of("client-output-buffer-limit",
                "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60")).pubsubHardLimit());
        assertEquals(0, facts(0, Map.of("client-output-buffer-limit", "normal 0 0 0 pubsub 0 0 0")).pubsubHardLimit());
        assertEquals(32 << 20, facts(0, Map.of()).pubsubHardLimit(), "Redis's default when CONFIG is refused");
    }

    @Test
    void aQueryBufferLimitBelowTheMessageSizeIsNamed() {
        UserError e = assertThrows(UserError.class, () -> facts(0, Map.of("proto-max-bulk-len", "536870912",
                "client-query-buffer-limit", "1048576")).checkMessageSize(2_000_000));
        assertEquals("--size 2000000 B: this Redis accepts commands of at most 1048576 bytes (client-query-buffer-limit); "
                + "raise it: --broker-prop client-query-buffer-limit=4mb for a local broker", e.getMessage());
        facts(0, Map.of()).checkMessageSize(1 << 20);
    }
}
