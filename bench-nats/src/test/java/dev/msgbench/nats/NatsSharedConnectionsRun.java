package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.testing.Poll;
import dev.msgbench.core.testing.SharedConnectionsRun;
import dev.msgbench.nats.broker.ServerMonitor;

/**
 * NATS's shape of bench-core's {@link SharedConnectionsRun}: 12 producer streams on 3 connections
 * (one publishing thread each), 6 topics of 2 subscriptions, the 12 consumers on 2 connections.
 * Asserts at the server (/connz) that exactly those connections exist while the run is open and
 * that each closed with its last user, and that each consumer received exactly the messages of its
 * topic, once each.
 */
final class NatsSharedConnectionsRun {

    static final RunPlan PLAN_SHAPE = new RunPlan("shape", 64, 12, 12, 6, 2, 3, 2);
    private static final int ROUNDS = 100;
    private static final Duration WAIT = Duration.ofSeconds(10);

    private NatsSharedConnectionsRun() {
    }

    /** The plan with this run's id. */
    static RunPlan plan(String runId) {
        RunPlan p = PLAN_SHAPE;
        return new RunPlan(runId, p.messageSizeBytes(), p.producers(), p.consumers(), p.topics(),
                p.subscriptionsPerTopic(), p.producerConnections(), p.consumerConnections());
    }

    /** The client names /connz shows while the run is open: setup, 3 producer and 2 consumer connections. */
    static List<String> expectedNames() {
        List<String> names = new ArrayList<>(List.of("msgbench-setup"));
        for (int c = 0; c < PLAN_SHAPE.producerConnections(); c++) {
            names.add("msgbench-producers-" + c);
        }
        for (int c = 0; c < PLAN_SHAPE.consumerConnections(); c++) {
            names.add("msgbench-consumers-" + c);
        }
        return sorted(names);
    }

    /**
     * @param keys        the run's record keys, or {@link RecordKeys#NONE}
     * @param awaitsAcks  whether every message is acknowledged to its own stream's listener
     */
    static void run(MessagingSystem system, String runId, RecordKeys keys, ServerMonitor monitor, boolean awaitsAcks)
            throws Exception {
        RunPlan plan = plan(runId);
        SharedConnectionsRun.prepare(system, plan, keys);
        assertEquals("3 for 12 producer streams (stream s on connection s mod 3, each used by one producer thread); "
                + "2 for 12 consumers (consumer i on connection i mod 2, each message handed to its own consumer)",
                system.info().settings().get("connections"));
        List<String> names = new ArrayList<>();
        SharedConnectionsRun run = SharedConnectionsRun.run(system, plan, ROUNDS, keys, awaitsAcks,
                (publishers, subscribers) -> names.addAll(namesSettled(monitor, expectedNames())));
        assertEquals(expectedNames(), names, "the connections while the run was open");
        assertEquals(List.of("msgbench-setup"), namesSettled(monitor, List.of("msgbench-setup")),
                "each shared connection closed with its last user");
        run.assertExact();
    }

    /**
     * Request/reply with 4 streams of 2 topics on 2 connections and both responders on one: every
     * request is echoed once, and the echoes reach the core through the sink the system hands them
     * to (the last subscriber's, as without sharing).
     *
     * @param expectedNames the client names /connz shows while the run is open
     */
    static void requestReply(MessagingSystem system, String runId, ServerMonitor monitor, List<String> expectedNames)
            throws Exception {
        RunPlan plan = new RunPlan(runId, 64, 4, 2, 2, 1, 2, 1);
        system.prepare(plan);
        List<String> names = new ArrayList<>();
        SharedConnectionsRun run = SharedConnectionsRun.run(system, plan, ROUNDS, RecordKeys.NONE, false,
                (publishers, subscribers) -> names.addAll(namesSettled(monitor, sorted(expectedNames))));
        assertEquals(sorted(expectedNames), names, "the connections while the run was open");
        assertEquals(List.of("msgbench-setup"), namesSettled(monitor, List.of("msgbench-setup")));
        run.assertEveryMessageReceivedOnceBy(plan.consumers() - 1);
    }

    /** The server notices a closed client when its socket closes: asked again until it shows. */
    private static List<String> namesSettled(ServerMonitor monitor, List<String> expected) throws Exception {
        try {
            return Poll.valueWithin(WAIT, () -> {
                List<String> names = sorted(monitor.connectionNames());
                return names.equals(expected) ? names : null;
            });
        } catch (AssertionError notYet) {
            // the assertion that follows shows how they differ
            return sorted(monitor.connectionNames());
        }
    }

    private static List<String> sorted(List<String> names) {
        return names.stream().sorted().collect(Collectors.toList());
    }
}
