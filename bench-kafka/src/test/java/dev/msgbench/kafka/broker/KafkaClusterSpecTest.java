package dev.msgbench.kafka.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class KafkaClusterSpecTest {

    @Test
    @Timeout(5)
    void theDefaultsAreOneNodeNoOverridesHalfAGigabyteAndNinetySeconds() {
        KafkaClusterSpec spec = KafkaClusterSpec.defaults();

        assertEquals(1, spec.broker().nodes());
        assertEquals(Map.of(), spec.broker().props());
        assertEquals("512m", spec.heap());
        assertNull(spec.broker().logDir());
        assertEquals(Duration.ofSeconds(90), spec.broker().startTimeout());
        assertEquals(spec, new KafkaClusterSpec(new BrokerSpec(1, null, null, null, null, null, null), null));
    }

    @Test
    @Timeout(5)
    void zeroBrokersIsAnErrorThatNamesTheSetting() {
        UserError e = assertThrows(UserError.class, () -> KafkaClusterSpec.of(BrokerSpec.defaults().withNodes(0)));

        assertEquals("brokers must be at least 1, got 0", e.getMessage());
    }

    @Test
    @Timeout(5)
    void aBrokerPropertyThatMsgbenchSetsPerRunCannotBeOverridden() {
        UserError e = assertThrows(UserError.class,
                () -> KafkaClusterSpec.of(BrokerSpec.defaults().withProps(Map.of("listeners", "PLAINTEXT://:9092"))));

        assertEquals("--broker-prop listeners cannot be set: msgbench chooses it for every run "
                + "(ports, directories, KRaft quorum); remove it", e.getMessage());
    }

    @Test
    @Timeout(5)
    void aHeapThatIsNotAJvmSizeIsRejected() {
        UserError e = assertThrows(UserError.class, () -> KafkaClusterSpec.defaults().withHeap("half"));

        assertEquals("the broker heap must be a JVM size such as 512m or 2g, got 'half'", e.getMessage());
    }

    @Test
    @Timeout(5)
    void brokerPropsCannotBeChangedAfterwards() {
        KafkaClusterSpec spec = KafkaClusterSpec.of(BrokerSpec.defaults()
                .withProps(new java.util.HashMap<>(Map.of("a", "b"))));

        assertThrows(UnsupportedOperationException.class, () -> spec.broker().props().put("c", "d"));
    }
}
