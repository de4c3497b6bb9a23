package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The probes of many streams proven at once, with a network that delivers or drops what it is given. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ProbesTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** Gathers the probes of a round and delivers, at the round's end, those {@code delivers} lets through. */
    private static final class Network implements Probes.Sender {
        final Probes probes;
        final IntPredicate delivers;
        final List<List<Integer>> rounds = new ArrayList<>();
        private List<Integer> round = new ArrayList<>();

        Network(Probes probes, IntPredicate delivers) {
            this.probes = probes;
            this.delivers = delivers;
        }

        @Override
        public void send(int streamId) {
            round.add(streamId);
        }

        @Override
        public void sent() {
            rounds.add(round);
            for (int stream : round) {
                if (delivers.test(stream)) {
                    probes.arrived(Probes.probe(stream));
                }
            }
            round = new ArrayList<>();
        }
    }

    private static int[] streams(int first, int count, int step) {
        int[] ids = new int[count];
        for (int i = 0; i < count; i++) {
            ids[i] = first + i * step;
        }
        return ids;
    }

    @Test
    void theProbesOfABatchGoOutBackToBackInOneRoundThatProvesThemAll() throws Exception {
        Probes probes = new Probes(2000);
        Network network = new Network(probes, s -> true);

        probes.awaitAll(streams(1, 1000, 2), TIMEOUT, network, s -> "subject " + s);

        assertEquals(1, network.rounds.size(), "one round for the whole batch");
        assertEquals(1000, network.rounds.get(0).size());
        assertEquals(1999, network.rounds.get(0).get(999));
    }

    @Test
    void onlyTheProbesStillMissingAreSentAgain() throws Exception {
        Probes probes = new Probes(100);
        Set<Integer> droppedOnce = new java.util.HashSet<>(Set.of(3, 7));
        Network network = new Network(probes, s -> !droppedOnce.remove(s));

        probes.awaitAll(streams(0, 100, 1), TIMEOUT, network, s -> "subject " + s);

        assertEquals(2, network.rounds.size());
        assertEquals(List.of(3, 7), network.rounds.get(1));
    }

    @Test
    void aStreamItsBatchProvedIsReadyWithoutAProbeOfItsOwn() throws Exception {
        Probes probes = new Probes(10);
        Network network = new Network(probes, s -> true);
        probes.awaitAll(streams(0, 5, 2), TIMEOUT, network, s -> "subject " + s);

        probes.await(8, TIMEOUT, () -> network.send(8), "subject 8");

        assertEquals(1, network.rounds.size(), "nothing sent after the batch's round");
    }

    @Test
    void aProbeThatNeverComesIsNamedWithItsPathAndTheTimeoutAndTheOthersMissingAreCounted() {
        Probes probes = new Probes(10);
        Network network = new Network(probes, s -> s != 4 && s != 8);

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> probes.awaitAll(streams(0, 5, 2), Duration.ofSeconds(1), network, s -> "subject " + s));

        assertEquals("no probe of stream 4 came through subject 4 within 1 s: the subscriptions did not reach every "
                + "server; nor did those of 1 other stream of its batch", e.getMessage());
        assertEquals(List.of(4, 8), network.rounds.get(network.rounds.size() - 1), "resent only the missing");
    }
}
