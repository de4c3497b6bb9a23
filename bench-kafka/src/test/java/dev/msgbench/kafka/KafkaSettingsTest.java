package dev.msgbench.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.driver.Acks;

class KafkaSettingsTest {

    private static KafkaSettings with(Acks acks) {
        return new KafkaSettings("127.0.0.1:9092", acks, 1, 0, Map.of(), Map.of(), CommitMode.AUTO,
                Duration.ofMillis(100), null, Duration.ofSeconds(8), false);
    }

    @Test
    void everyAcksValueMapsToTheProducerSettingOfTheSameName() {
        assertEquals("0", with(Acks.NONE).producerAcks());
        assertEquals("1", with(Acks.BROKER).producerAcks());
        assertEquals("all", with(Acks.ALL).producerAcks());
    }

    @Test
    void withoutAcksTheProducersOwnDefaultAllApplies() {
        assertEquals(Acks.ALL, with(null).acks());
        assertEquals("all", with(null).producerAcks());
        assertEquals(Acks.ALL, KafkaSettings.defaults("127.0.0.1:9092").acks());
    }
}
