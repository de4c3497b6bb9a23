package dev.msgbench.core.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The schedule's arithmetic on exact numbers: no clock, no threads. */
class RateScheduleTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void stepsAddUpToTheMessagesOfEachStepAndLastTheirTimes() {
        RateSchedule s = RateSchedule.parse("1000/s for 30s, 5000/s for 10s, 1000/s for 60s");

        assertEquals(3, s.segments().size());
        assertEquals(100 * SECOND, s.durationNanos());
        assertEquals(30_000 + 50_000 + 60_000, s.totalMessages());
        assertEquals(1_400, s.meanRateMsgsPerSec());
        assertEquals(5_000, s.peakRateMsgsPerSec());
        assertEquals(30_000, s.countAt(30 * SECOND));
        assertEquals(55_000, s.countAt(35 * SECOND));
        assertEquals(5_000, s.rateAt(30 * SECOND));
        assertEquals(1_000, s.rateAt(40 * SECOND));
        assertEquals("1000/s for 30s, 5000/s for 10s, 1000/s for 1m", s.spec());
    }

    @Test
    void aRampDuesTheIntegralOfItsRateAndItsTimesSolveTheQuadratic() {
        RateSchedule s = RateSchedule.parse("1000/s to 5000/s over 30s");

        // (1000 + 5000) / 2 * 30
        assertEquals(90_000, s.totalMessages());
        // halfway: 1000 * 15 + 4000 / 30 * 15^2 / 2
        assertEquals(30_000, s.countAt(15 * SECOND), 1e-6);
        assertEquals(3_000, s.rateAt(15 * SECOND), 1e-9);
        assertEquals(15 * SECOND, s.offsetOfCount(30_000));
        // the second message comes a little under 1 ms after the first: the rate rises meanwhile
        // (1000 t + 4000 / 60 t^2 = 1)
        assertEquals(0, s.offsetOfCount(0));
        assertEquals(999_933, s.offsetOfCount(1));
        assertEquals(-1, s.offsetOfCount(90_000));
    }

    @Test
    void aRampDownAndARampFromZeroAreSolvedToo() {
        RateSchedule down = RateSchedule.parse("5000/s to 1000/s over 30s");
        assertEquals(90_000, down.totalMessages());
        assertEquals(60_000, down.countAt(15 * SECOND), 1e-6);
        assertEquals(15 * SECOND, down.offsetOfCount(60_000));

        RateSchedule fromZero = RateSchedule.parse("0/s to 2000/s over 10s");
        assertEquals(10_000, fromZero.totalMessages());
        // count = 100 t^2: 2,500 messages by 5 s
        assertEquals(5 * SECOND, fromZero.offsetOfCount(2_500));
    }

    @Test
    void aRepeatedGroupIsWrittenOutAndAPauseDuesNothing() {
        RateSchedule s = RateSchedule.parse("100/s for 1s, 3 x (2000/s for 500ms, 0/s for 1500ms)");

        assertEquals(7, s.segments().size());
        assertEquals(7 * SECOND, s.durationNanos());
        assertEquals(100 + 3 * 1_000, s.totalMessages());
        // message 1,100 is the first of the second burst, at 1 s + 2 s
        assertEquals(3 * SECOND, s.offsetOfCount(1_100));
        assertEquals(1_100, s.countAt(2_900_000_000L));
        assertEquals("100/s for 1s, 2000/s for 500ms, 0/s for 1500ms, 2000/s for 500ms, 0/s for 1500ms, "
                + "2000/s for 500ms, 0/s for 1500ms", s.spec());
        assertEquals(s.spec(), RateSchedule.parse(s.spec()).spec());
    }

    @Test
    void uniformStreamsShareEveryMessageOfTheScheduleExactlyOnce() {
        RateSchedule s = RateSchedule.parse("1000/s for 2s, 3000/s for 1s");
        List<Long> all = new ArrayList<>();
        for (int stream = 0; stream < 3; stream++) {
            Schedule times = Arrival.UNIFORM.schedule(SECOND, s, stream, 3, 7);
            for (long t = times.next(); t != Long.MAX_VALUE; t = times.next()) {
                all.add(t);
            }
        }
        all.sort(null);

        assertEquals(5_000, all.size());
        assertEquals(SECOND, all.get(0));
        assertEquals(SECOND + 1_000_000, all.get(1));
        // message 2,000 opens the fast step, at 1 s (the start) + 2 s, and the next is 1/3 ms later
        assertEquals(3 * SECOND, all.get(2_000));
        assertEquals(3 * SECOND + 333_333, all.get(2_001));
        assertEquals(4 * SECOND - 333_333, all.get(4_999));
    }

    @Test
    void aWarmUpLeadRunsAtTheFirstRateAndAWorkersShareScalesEveryRate() {
        RateSchedule s = RateSchedule.parse("1000/s to 3000/s over 10s");
        RateSchedule whole = s.afterLead(2 * SECOND);

        assertEquals(2_000 + 20_000, whole.totalMessages());
        assertEquals(2 * SECOND, whole.offsetOfCount(2_000));
        assertEquals(10_000, s.scaled(0.5).totalMessages());
        assertEquals("500/s to 1500/s over 10s", s.scaled(0.5).spec());
    }

    @Test
    void poissonArrivalsFollowTheRateOfEachSegmentWithTheSameSeedTheSameTimes() {
        RateSchedule s = RateSchedule.parse("1000/s for 10s, 0/s for 10s, 5000/s for 10s");
        long[] counts = new long[3];
        Schedule times = Arrival.POISSON.schedule(0, s, 0, 1, 42);
        for (long t = times.next(); t != Long.MAX_VALUE; t = times.next()) {
            counts[(int) (t / (10 * SECOND))]++;
        }
        Schedule again = Arrival.POISSON.schedule(0, s, 0, 1, 42);
        Schedule first = Arrival.POISSON.schedule(0, s, 0, 1, 42);

        // 10,000 and 50,000 expected: a Poisson count's standard deviation is its square root
        assertEquals(10_000, counts[0], 400);
        assertEquals(0, counts[1]);
        assertEquals(50_000, counts[2], 1_000);
        for (int i = 0; i < 100; i++) {
            assertEquals(first.next(), again.next());
        }
    }

    @Test
    void aBadSpecSaysWhichRuleItBrokeAndWhere() {
        assertEquals("expected 'RATE/s for TIME', 'RATE/s to RATE/s over TIME' or 'N x (...)', got '1000 for 30s'",
                error("1000 for 30s"));
        assertEquals("expected 'RATE/s for TIME', 'RATE/s to RATE/s over TIME' or 'N x (...)', got '1000/s during 30s'",
                error("1000/s for 5s, 1000/s during 30s"));
        assertEquals("a ramp is 'RATE/s to RATE/s over TIME', got '1000/s to 5000/s for 30s'",
                error("1000/s to 5000/s for 30s"));
        assertEquals("a time must be longer than 0, got '1000/s for 0s'", error("1000/s for 0s"));
        assertEquals("missing ')' after '2 x (1000/s for 1s'", error("2 x (1000/s for 1s"));
        assertEquals("a repeat count is a whole number from 1, got '0 x (1000/s for 1s)'", error("0 x (1000/s for 1s)"));
        assertEquals("expected 'RATE/s for TIME', 'RATE/s to RATE/s over TIME' or 'N x (...)', got ''", error(""));
    }

    private static String error(String spec) {
        return assertThrows(IllegalArgumentException.class, () -> RateSchedule.parse(spec)).getMessage();
    }
}
