package dev.msgbench.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Producers and consumers of an isolated run stamp messages in different network namespaces and
 * compare the stamps: that is only sound if every namespace reads one monotonic clock. On one
 * machine it does (System.nanoTime is CLOCK_MONOTONIC, and a network namespace is not a time
 * namespace); checked here rather than assumed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OneClockAcrossNamespacesTest {

    private static final int ROUNDS = 50;

    @Test
    void aProcessInAnotherNamespaceReadsTheClockBetweenOurTwoReadings() throws Exception {
        try (Topology topology = Topology.create(1, LinkShaping.NONE);
             InNamespace clock = InNamespace.java(topology.hosts().node(1).namespace(), NetChildMains.ReadsClock.class)) {
            for (int i = 0; i < ROUNDS; i++) {
                long before = System.nanoTime();
                clock.writeLine("now?");
                long theirs = Long.parseLong(clock.readLine());
                long after = System.nanoTime();
                assertTrue(before <= theirs && theirs <= after, before + " <= " + theirs + " <= " + after);
            }
        }
    }

    @Test
    void aStampSentFromOneNamespaceToAnotherArrivesLaterAndWithinTheRoundTrip() throws Exception {
        try (Topology topology = Topology.create(1, LinkShaping.NONE)) {
            IsolatedHosts hosts = topology.hosts();
            String address = hosts.node(1).address();
            try (InNamespace receiver = InNamespace.java(hosts.node(1).namespace(), NetChildMains.ReceivesStamps.class,
                    address, "7003")) {
                assertEquals("listening", receiver.readLine());
                try (InNamespace sender = InNamespace.java(hosts.client().namespace(), NetChildMains.SendsStamps.class,
                        address, "7003")) {
                    for (int i = 0; i < ROUNDS; i++) {
                        sender.writeLine("send");
                        String[] sent = sender.readLine().split(" ");
                        String[] received = receiver.readLine().split(" ");
                        long sentAt = Long.parseLong(sent[0]);
                        long answeredAt = Long.parseLong(sent[1]);
                        assertEquals(sentAt, Long.parseLong(received[0]));
                        long oneWayNanos = Long.parseLong(received[1]) - sentAt;
                        long roundTripNanos = answeredAt - sentAt;
                        assertTrue(oneWayNanos >= 0 && oneWayNanos <= roundTripNanos,
                                "one way " + oneWayNanos + " ns, round trip " + roundTripNanos + " ns");
                    }
                }
            }
        }
    }
}
