package dev.msgbench.core.run;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.RunPlan;

/**
 * How many topics a run spreads its producer streams over (--topics) and how many subscriptions
 * each topic has (--subscriptions-per-topic), every one of which receives all its messages.
 * --consumers counts the consumers of each subscription, which share its messages, so one topic
 * with one subscription keeps its meaning from before.
 */
public record Destinations(int topics, int subscriptionsPerTopic) {

    /** One topic, one subscription: every run before --topics. */
    public static final Destinations ONE = new Destinations(1, 1);

    public Destinations {
        if (topics < 1 || subscriptionsPerTopic < 1) {
            throw new IllegalArgumentException("topics and subscriptions per topic >= 1: " + topics + ", "
                    + subscriptionsPerTopic);
        }
    }

    /** Every consumer of the run: {@code perSubscription} for each subscription of each topic. */
    public int consumers(int perSubscription) {
        return perSubscription * topics * subscriptionsPerTopic;
    }

    public RunPlan plan(String runId, int messageSizeBytes, int producers, int consumersPerSubscription) {
        return new RunPlan(runId, messageSizeBytes, producers, consumers(consumersPerSubscription), topics,
                subscriptionsPerTopic);
    }

    /** As {@link #plan(String, int, int, int)}, with the producers and consumers sharing connections as {@code sharing} says. */
    public RunPlan plan(String runId, int messageSizeBytes, int producers, int consumersPerSubscription,
                        ClientSharing sharing) {
        int consumers = consumers(consumersPerSubscription);
        return new RunPlan(runId, messageSizeBytes, producers, consumers, topics, subscriptionsPerTopic,
                sharing.threadsFor(producers), sharing.connectionsFor(consumers));
    }

    /**
     * Why {@code producers} streams cannot serve these topics, or null when they can: the command
     * line says it before a broker starts, the engine again for a worker's share.
     */
    public Phrase tooFewProducers(int producers) {
        return producers >= topics ? null : Phrase.of("%s %d: every topic needs a producer stream of its own; give %s %d "
                + "or more, or fewer topics (got %d)", Setting.TOPICS, topics, Setting.PRODUCERS, topics, producers);
    }

    /**
     * Refuses a topic that would have no producer stream: stream s publishes to topic s mod topics,
     * so there must be at least as many streams (in this worker, with --workers) as topics.
     */
    void check(int producers, WorkerRole worker) {
        if (producers >= topics) {
            return;
        }
        if (worker == null) {
            throw new UserError(tooFewProducers(producers));
        }
        throw new UserError(Phrase.of("%s %d: every topic needs a producer stream of its own in each worker, and "
                + "worker %d of %d has %d; give %s %d or more (got %d)", Setting.TOPICS, topics, worker.index(),
                worker.count(), producers, Setting.PRODUCERS, topics * worker.count(), worker.totalStreams()));
    }
}
