package dev.msgbench.kafka.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msgbench.core.UserError;
import dev.msgbench.kafka.KafkaProps;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** --broker-prop is checked against the broker's own definitions, read from its jars, which this class path lacks. */
@Timeout(60)
class BrokerSettingsTest {

    @Test
    void theServerClassesAreNotOnTheRunnersClassPath() {
        ClassLoader runner = BrokerSettingsTest.class.getClassLoader();

        assertNull(runner.getResource("kafka/Kafka.class"));
        assertNull(runner.getResource("org/apache/kafka/server/config/AbstractKafkaConfig.class"));
    }

    @Test
    void theDefinitionsComeFromTheBrokersJarsOnceAndAreTheRunnersConfigDef() {
        ConfigDef definitions = BrokerSettings.definitions();

        assertEquals(ConfigDef.Type.INT, definitions.configKeys().get("num.partitions").type);
        assertSame(definitions, BrokerSettings.definitions());
    }

    @Test
    void aValueTheBrokerRefusesIsOneLineWithKafkasRule() {
        UserError e = assertThrows(UserError.class,
                () -> KafkaProps.BROKER.check(Map.of("log.flush.interval.messages", "0")));

        assertEquals("--broker-prop log.flush.interval.messages=0: value must be at least 1 (Kafka's rule for "
                + "log.flush.interval.messages)", e.getMessage());
    }

    @Test
    void aKeyTheBrokerDoesNotDefineIsAWarning() {
        assertEquals(List.of("--broker-prop foo is not a Kafka broker setting; Kafka ignores it unless a plugin reads "
                + "it (check the spelling)"), KafkaProps.BROKER.check(Map.of("foo", "1")));
    }

    @Test
    void theBrokersVersionIsThatOfItsJars() {
        assertEquals(AppInfoParser.getVersion(),
                LocalKafkaCluster.CLASS_PATH.version("kafka_2.13"), "kafka-clients and the broker share kafka.version");
    }
}
