package dev.msgbench.core.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.msgbench.core.UserError;
import dev.msgbench.core.net.Placement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(5)
class BrokerSpecTest {

    @Test
    void theDefaultsAreOneOpenNodeOnLoopbackWithNoSettingsAndTheSystemsStartTimeout() {
        BrokerSpec spec = BrokerSpec.defaults();

        assertEquals(1, spec.nodes());
        assertEquals(Map.of(), spec.props());
        assertNull(spec.logDir());
        assertNull(spec.startTimeout());
        assertNull(spec.cpus());
        assertNull(spec.security());
        assertSame(Placement.LOOPBACK, spec.placement());
        assertEquals(spec, new BrokerSpec(1, null, null, null, null, null, null));
    }

    @Test
    void zeroNodesIsAnErrorThatNamesTheSetting() {
        UserError e = assertThrows(UserError.class, () -> BrokerSpec.defaults().withNodes(0));

        assertEquals("brokers must be at least 1, got 0", e.getMessage());
    }

    @Test
    void aStartTimeoutThatIsNotPositiveIsRefused() {
        UserError e = assertThrows(UserError.class, () -> BrokerSpec.defaults().withStartTimeout(Duration.ZERO));

        assertEquals("the broker start timeout must be positive, got PT0S", e.getMessage());
    }

    @Test
    void theSystemsStartTimeoutAppliesOnlyWhenNoneWasAskedFor() {
        Duration asked = Duration.ofSeconds(5);

        assertEquals(Duration.ofSeconds(30),
                BrokerSpec.defaults().withDefaultStartTimeout(Duration.ofSeconds(30)).startTimeout());
        assertEquals(asked, BrokerSpec.defaults().withStartTimeout(asked)
                .withDefaultStartTimeout(Duration.ofSeconds(30)).startTimeout());
    }

    @Test
    void thePropsAreACopyThatCannotBeChanged() {
        Map<String, String> given = new HashMap<>(Map.of("a", "b"));
        BrokerSpec spec = BrokerSpec.defaults().withProps(given);
        given.put("c", "d");

        assertEquals(Map.of("a", "b"), spec.props());
        assertThrows(UnsupportedOperationException.class, () -> spec.props().put("c", "d"));
    }
}
