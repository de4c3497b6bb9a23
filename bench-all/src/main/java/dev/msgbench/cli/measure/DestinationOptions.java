package dev.msgbench.cli.measure;

import dev.msgbench.cli.FlagNames;
import dev.msgbench.cli.Limits;
import dev.msgbench.core.Phrase;
import dev.msgbench.core.run.Destinations;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Many destinations and fan-out: how many topics a run spreads over, and how many subscriptions each has. */
public final class DestinationOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--topics", paramLabel = "N", defaultValue = "1",
            description = "Destinations (Kafka topics, NATS subjects, JetStream streams, RabbitMQ queues, Redis channels "
                    + "or streams): producer stream s publishes to topic s mod N, so --producers must be at least N "
                    + "(default: ${DEFAULT-VALUE}).")
    int topics;

    @Option(names = "--subscriptions-per-topic", paramLabel = "K", defaultValue = "1",
            description = "Subscriptions of each topic, every one receiving every message of it (Kafka consumer groups, "
                    + "RabbitMQ queues on a fanout exchange, ...); --consumers then counts the consumers of each "
                    + "subscription, which share its messages. Latency is recorded per delivery, and a message a "
                    + "subscription missed is lost for it alone (default: ${DEFAULT-VALUE}).")
    int subscriptionsPerTopic;

    /**
     * @param producers every producer stream of the run (--producers), checked already; with
     *                  --workers each worker's share is checked again when it runs
     * @param consumers per subscription (--consumers), checked already
     */
    void validate(int producers, int consumers) {
        if (topics < 1) {
            throw new ParameterException(spec.commandLine(), "--topics must be at least 1, got " + topics);
        }
        if (subscriptionsPerTopic < 1) {
            throw new ParameterException(spec.commandLine(), "--subscriptions-per-topic must be at least 1, got "
                    + subscriptionsPerTopic);
        }
        Limits.requireLogicalClientsAtMost(spec, "--topics", topics);
        // before any broker starts: the engine would refuse it only once connected
        Phrase tooFew = destinations().tooFewProducers(producers);
        if (tooFew != null) {
            throw new ParameterException(spec.commandLine(), FlagNames.render(tooFew));
        }
        Limits.requireLogicalClientsAtMost(spec, "--consumers x --topics x --subscriptions-per-topic",
                (long) consumers * topics * subscriptionsPerTopic);
    }

    public Destinations destinations() {
        return new Destinations(topics, subscriptionsPerTopic);
    }
}
