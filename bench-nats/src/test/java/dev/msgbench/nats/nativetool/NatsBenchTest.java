package dev.msgbench.nats.nativetool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.UserError;
import dev.msgbench.core.system.NativeFigure;
import dev.msgbench.core.system.NativeRequest;
import dev.msgbench.core.system.NativeRun;
import dev.msgbench.core.system.NativeSide;

/** nats-bench's command lines, and its rates read from what it printed in compare-native's runs. */
class NatsBenchTest {

    private static final String PUB_ONLY = """
            Starting benchmark [msgs=1000000, msgsize=100, pubs=1, subs=0]
            Pub stats: 1,939,279 msgs/sec ~ 184.94 MB/sec
            """;

    private static final String PUB_AND_SUB = """
            Starting benchmark [msgs=500000, msgsize=100, pubs=1, subs=1]
            NATS Pub/Sub stats: 2,632,433 msgs/sec ~ 251.05 MB/sec
             Pub stats: 1,316,216 msgs/sec ~ 125.52 MB/sec
             Sub stats: 1,322,803 msgs/sec ~ 126.15 MB/sec
            """;

    private static NativeRequest request(NativeSide side, String client) {
        return new NativeRequest("nats://127.0.0.1:4222", side, 100, 10_000_000, 0, "cmp-1", Map.of("nats-client", client));
    }

    @Test
    void theRatesAreReadWithoutTheirThousandsSeparatorsIndentedOrNot() {
        assertEquals(Optional.of("1939279"), NatsBenchOutput.publisherRate(PUB_ONLY));
        assertEquals(Optional.of("1316216"), NatsBenchOutput.publisherRate(PUB_AND_SUB));
        assertEquals(Optional.of("1322803"), NatsBenchOutput.subscriberRate(PUB_AND_SUB));
        assertEquals(Optional.empty(), NatsBenchOutput.subscriberRate(PUB_ONLY));
    }

    @Test
    void aPublisherRunHasNoSubscriberAndItsSubjectIsAsLongAsOurs() {
        String subject = NatsBench.subject(1_764_000_000_000L);
        assertEquals("msgbench-19ab697e800-cmp.0", subject);
        assertEquals(26, subject.length());
        NativeRun run = NatsBench.run(Path.of("/go/bin/nats-bench"), request(NativeSide.PUBLISHER, "direct"), subject);

        assertEquals(List.of(NativeRun.Step.measured("nats-bench", List.of("/go/bin/nats-bench", "-s", "nats://127.0.0.1:4222",
                "-np", "1", "-ns", "0", "-n", "10000000", "-ms", "100", subject))), run.steps());
        assertEquals(Optional.of(NativeFigure.of("1939279")), run.reader().read(step -> PUB_ONLY));
    }

    @Test
    void aSubscriberRunHasOneAndIsReadFromItsStats() {
        NativeRun run = NatsBench.run(Path.of("nats-bench"), request(NativeSide.SUBSCRIBER, "direct"), "s.0");

        assertEquals("1", run.steps().get(0).argv().get(6));
        assertEquals(Optional.of(NativeFigure.of("1322803")), run.reader().read(step -> PUB_AND_SUB));
    }

    @Test
    void oursSpeaksTheClientTheKnobNamesAndRefusesAnother() {
        NatsBench tool = new NatsBench();
        assertEquals(List.of("--producers", "1", "--consumers", "1", "--nats-client", "jnats"),
                tool.matchingFlags(request(NativeSide.SUBSCRIBER, "jnats")));
        assertEquals("nats-bench pub-only msgs/sec vs our publisher msg/s (--consumers 0, --nats-client direct)",
                tool.compared(request(NativeSide.PUBLISHER, "direct")));
        UserError e = assertThrows(UserError.class, () -> tool.matchingFlags(request(NativeSide.PUBLISHER, "go")));
        assertEquals("knob nats-client must be direct or jnats, got 'go'", e.getMessage());
    }
}
