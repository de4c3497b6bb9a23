package dev.msgbench.core.floor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.time.NanoClock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PingPongFloorTest {

    @Test
    void everyScheduledExchangeOfTheMeasuredTimeIsSentAnsweredAndRecorded() throws Exception {
        PingPongFloor.Outcome outcome = PingPongFloor.measure(
                new PingPongFloor.Settings(1024, 2000, Duration.ofMillis(100), Duration.ofMillis(500)), NanoClock.system());

        // a uniform schedule puts exactly rate x duration intended times in the measured half-open window
        assertEquals(1000, outcome.sent());
        assertEquals(1000, outcome.answered());
        assertEquals(1000, outcome.roundTrip().getTotalCount());
        assertEquals(1000, outcome.serviceTime().getTotalCount());
        assertTrue(outcome.roundTrip().getMinValue() > 0, "a round trip over loopback takes time");
    }

    @Test
    void theRoundTripFromTheIntendedTimeIsNeverShorterThanFromTheActualSend() throws Exception {
        PingPongFloor.Outcome outcome = PingPongFloor.measure(
                new PingPongFloor.Settings(100, 5000, Duration.ZERO, Duration.ofMillis(400)), NanoClock.system());

        // each message's intended time precedes its send, so every quantile of one bounds the other's
        for (double p : new double[] {50, 90, 99, 100}) {
            assertTrue(outcome.roundTrip().getValueAtPercentile(p) >= outcome.serviceTime().getValueAtPercentile(p),
                    "p" + p);
        }
    }

    @Test
    void aMessageMustHoldTheHeader() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PingPongFloor.Settings(31, 1000, Duration.ZERO, Duration.ofSeconds(1)));
        assertEquals("size must be at least 32 bytes: 31", e.getMessage());
    }
}
