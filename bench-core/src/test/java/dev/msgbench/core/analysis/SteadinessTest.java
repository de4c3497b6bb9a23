package dev.msgbench.core.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.analysis.Steadiness.Verdict;

class SteadinessTest {

    private static final double RATE = 2000;

    @Test
    void aRunAtTheSameLatencyThroughoutIsSteady() {
        Steadiness s = Steadiness.judge(seconds(30, second -> 2.0, second -> 4L), RATE);

        assertEquals(Verdict.STEADY, s.verdict());
        assertEquals(List.of(), s.reasons());
        assertEquals(30, s.seconds());
    }

    @Test
    void oneSlowSecondInTheFirstPartIsNoise() {
        Steadiness s = Steadiness.judge(seconds(30, second -> second == 2 ? 300.0 : 2.0, second -> 4L), RATE);

        assertEquals(Verdict.STEADY, s.verdict());
    }

    @Test
    void aBrokerWarmingUpIsNotSteady() {
        // as measured on a fresh Kafka broker at 2,000 msg/s of 5 KiB: p50 climbing to 2.7 s over
        // the first 5 s with a backlog, drained by 10 s, then about 2 ms
        double[] warmingP50 = {600, 1200, 1800, 2300, 2700, 2000, 1200, 600, 200, 20};
        long[] warmingBacklog = {1200, 2400, 3600, 4600, 5400, 4000, 2400, 1200, 400, 40};
        Steadiness s = Steadiness.judge(seconds(30, second -> second < 10 ? warmingP50[second] : 2.0,
                second -> second < 10 ? warmingBacklog[second] : 4L), RATE);

        assertEquals(Verdict.NOT_STEADY, s.verdict());
        assertEquals(List.of(
                "latency settled during the run: per-second p50 1,800 ms in the first 7 s, 2.00 ms in the last 15 s",
                "a backlog drained during the run: 2,400 messages in flight after 7 s, at most 4 in the last 15 s"),
                s.reasons());
    }

    @Test
    void aSystemFallingBehindIsNotSteady() {
        Steadiness s = Steadiness.judge(seconds(20, second -> 2.0 + second * 100, second -> second * 500L), RATE);

        assertEquals(Verdict.NOT_STEADY, s.verdict());
        assertEquals("falling behind: the backlog grew from 5,000 to 9,500 messages over the last 10 s",
                s.reasons().get(s.reasons().size() - 1));
    }

    @Test
    void subMillisecondDifferencesAreNoise() {
        Steadiness s = Steadiness.judge(seconds(20, second -> second < 5 ? 0.4 : 0.1, second -> 1L), RATE);

        assertEquals(Verdict.STEADY, s.verdict());
    }

    @Test
    void fewerThanSixSecondsAreTooShortToJudge() {
        Steadiness s = Steadiness.judge(seconds(5, second -> second == 0 ? 500.0 : 2.0, second -> 4L), RATE);

        assertEquals(Verdict.TOO_SHORT_TO_JUDGE, s.verdict());
        assertEquals("too short to judge", s.verdict().label());
    }

    private interface PerSecond<T> {
        T at(int second);
    }

    private static List<SecondStats> seconds(int count, PerSecond<Double> p50Ms, PerSecond<Long> inFlight) {
        List<SecondStats> seconds = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            double p50 = p50Ms.at(i);
            seconds.add(new SecondStats(i, (long) RATE, (long) RATE, inFlight.at(i), p50, p50 * 2, p50 * 3));
        }
        return seconds;
    }
}
