package dev.msgbench.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.loopback.LoopbackSystem;
import dev.msgbench.core.result.Counts;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.SubscriptionCounts;
import dev.msgbench.core.testing.ForwardingSystem;
import dev.msgbench.core.time.NanoClock;

/**
 * Many topics and fan-out through the loopback system, whose every delivery is exact: the counts
 * per subscription and in total, and a subscription that misses messages losing them alone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FanOutRunTest {

    private static final int MESSAGES = 3_000;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private RunResult run(MessagingSystem system, int producers, int consumersPerSubscription, Destinations spread)
            throws Exception {
        RunSpec config = new RunSpec("throughput", "loopback", new Pacing.Unpaced(MESSAGES, 0, Duration.ofSeconds(30),
                false), 100, producers, consumersPerSubscription, 42, Duration.ofMillis(500), Duration.ofSeconds(5), dir,
                false, Map.of("local", true));
        return new LoadRun(config.withDestinations(spread), system, NanoClock.system(),
                new PrintStream(out, true, StandardCharsets.UTF_8), null, false).execute();
    }

    @Test
    void everySubscriptionOfEveryTopicReceivesEachOfItsMessagesOnce() throws Exception {
        RunResult r = run(new LoopbackSystem(), 3, 2, new Destinations(3, 2));

        Counts c = r.counts();
        assertEquals(MESSAGES, c.sent());
        assertEquals(2L * MESSAGES, c.deliveriesExpected());
        assertEquals(2L * MESSAGES, c.received());
        assertEquals(0, c.lost());
        assertEquals(0, c.duplicated());
        assertEquals(0, c.foreign());
        assertEquals(6, c.subscriptions().size());
        for (SubscriptionCounts s : c.subscriptions()) {
            assertEquals(MESSAGES / 3, s.expected(), "topic " + s.topic() + " has one stream of three");
            assertEquals(MESSAGES / 3, s.received());
            assertEquals(0, s.lost());
        }
        assertEquals(List.of(0, 0, 1, 1, 2, 2), c.subscriptions().stream().map(SubscriptionCounts::topic).toList());
        assertEquals(List.of(0, 1, 0, 1, 0, 1), c.subscriptions().stream().map(SubscriptionCounts::subscription).toList());
        assertEquals(3, r.workload().topics());
        assertEquals(2, r.workload().subscriptionsPerTopic());
        assertEquals(2, r.workload().consumers(), "--consumers counts the consumers of each subscription");
        assertEquals(2L * MESSAGES, r.throughput().received(), "latency is recorded per delivery");
    }

    @Test
    void aMessageOneSubscriptionMissedIsLostForItAlone() throws Exception {
        // the second subscription of topic 1 misses every tenth message that reaches it
        MissingDeliveries system = new MissingDeliveries(new LoopbackSystem(), 1, 1, 10);

        RunResult r = run(system, 3, 1, new Destinations(3, 2));

        long missed = system.missed.get();
        assertEquals(MESSAGES / 3 / 10, missed);
        Counts c = r.counts();
        assertEquals(2L * MESSAGES - missed, c.received());
        assertEquals(missed, c.lost());
        for (SubscriptionCounts s : c.subscriptions()) {
            boolean missing = s.topic() == 1 && s.subscription() == 1;
            assertEquals(missing ? missed : 0, s.lost(), "topic " + s.topic() + " subscription " + s.subscription());
            assertEquals(MESSAGES / 3 - (missing ? missed : 0), s.received());
        }
        String summary = out.toString(StandardCharsets.UTF_8);
        assertTrue(summary.contains("  3 topics x 2 subscriptions: deliveries expected 6,000 (each message once per "
                + "subscription of its topic); 1 subscriptions lost messages\n"
                + "    topic 1 subscription 1: expected 1,000   received 900   lost 100\n"), summary);
    }

    @Test
    void oneTopicWithOneSubscriptionKeepsTheCountsOfBefore() throws Exception {
        RunResult r = run(new LoopbackSystem(), 2, 2, Destinations.ONE);

        assertNull(r.counts().subscriptions(), "the totals are the one subscription's counts");
        assertEquals(MESSAGES, r.counts().deliveriesExpected());
        assertEquals(MESSAGES, r.counts().received());
        assertEquals(1, r.workload().topics());
    }

    @Test
    void aTopicWithoutAProducerStreamIsRefused() {
        UserError e = assertThrows(UserError.class, () -> run(new LoopbackSystem(), 2, 1, new Destinations(3, 1)));

        assertEquals("topics 3: every topic needs a producer stream of its own; give producers 3 or more, "
                + "or fewer topics (got 2)", e.getMessage());
    }

    @Test
    void consumersAreDealtToTopicsThenSubscriptionsThenMembers() {
        RunPlan plan = new RunPlan("run", 100, 6, 12, 3, 2);

        assertEquals(2, plan.consumersPerSubscription());
        assertEquals(List.of(1, 1, 1, 1), List.of(plan.topicOfConsumer(4), plan.topicOfConsumer(5),
                plan.topicOfConsumer(6), plan.topicOfConsumer(7)));
        assertEquals(List.of(0, 0, 1, 1), List.of(plan.subscriptionOfConsumer(4), plan.subscriptionOfConsumer(5),
                plan.subscriptionOfConsumer(6), plan.subscriptionOfConsumer(7)));
        assertEquals(List.of(1), plan.streamsOf(4), "topic 1 has streams 1 and 4: member 0 reads the first");
        assertEquals(List.of(4), plan.streamsOf(5));
        assertEquals(List.of(1), plan.streamsOf(6), "the second subscription reads the same streams again");
        assertEquals("run-t1", plan.topicName(1));
        assertEquals("run-t1-s0", plan.subscriptionName(1, 0));
        assertEquals("run", new RunPlan("run", 100, 1, 1).topicName(0), "one topic keeps the names of before");
    }

    /** Drops every {@code every}-th message delivered to one subscription, as a subscriber cut off would. */
    private static final class MissingDeliveries extends ForwardingSystem {
        private final int topic;
        private final int subscription;
        private final int every;
        private final AtomicLong delivered = new AtomicLong();
        final AtomicLong missed = new AtomicLong();
        private RunPlan plan;

        MissingDeliveries(MessagingSystem inner, int topic, int subscription, int every) {
            super(inner);
            this.topic = topic;
            this.subscription = subscription;
            this.every = every;
        }

        @Override
        public void prepare(RunPlan runPlan) throws Exception {
            this.plan = runPlan;
            system.prepare(runPlan);
        }

        @Override
        public Subscriber subscribe(int index, MessageSink sink) throws Exception {
            if (plan.topicOfConsumer(index) != topic || plan.subscriptionOfConsumer(index) != subscription) {
                return system.subscribe(index, sink);
            }
            return system.subscribe(index, new MessageSink() {
                @Override
                public void onMessage(byte[] data, int offset, int length, int lane) {
                    if (delivered.incrementAndGet() % every == 0) {
                        missed.incrementAndGet();
                    } else {
                        sink.onMessage(data, offset, length, lane);
                    }
                }

                @Override
                public void onMessage(ByteBuffer data, int lane) {
                    throw new AssertionError("the loopback hands over arrays");
                }

                @Override
                public void onError(Throwable error) {
                    sink.onError(error);
                }
            });
        }
    }
}
