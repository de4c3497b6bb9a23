package dev.msgbench.cli;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.msgbench.core.driver.Acks;
import picocli.CommandLine.Option;

/** Which system to measure, where it runs, and the durability asked of it. */
final class TargetOptions {

    @Option(names = "--system", paramLabel = "SYSTEM", defaultValue = "kafka",
            description = "System under test: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
            completionCandidates = SystemNames.class)
    String system;

    @Option(names = {"--url", "--bootstrap-servers"}, paramLabel = "URL",
            description = "An existing broker or cluster to measure: Kafka host:port[,host:port...]; "
                    + "NATS nats://host:port[,...]; RabbitMQ amqp://[user:password@]host[:port][/vhost]; Redis "
                    + "redis://host:port. Without it the suite starts a local broker on free ports and stops it afterwards.")
    String url;

    @Option(names = "--acks", paramLabel = "ACKS", converter = Converters.AcksValue.class,
            description = "What a publish waits for: 0 = nothing, 1 = the broker has it, all = every replica has it "
                    + "(default: the system's own; Kafka: all).")
    Acks acks;

    @Option(names = "--brokers", paramLabel = "N", defaultValue = "1",
            description = "Nodes of the local broker (default: ${DEFAULT-VALUE}; 3 makes acks=all with replication real).")
    int brokers;

    @Option(names = "--broker-prop", paramLabel = "KEY=VALUE",
            description = "A server setting for the local broker, e.g. log.flush.interval.messages=1 (repeatable). "
                    + "Kafka's are checked against the broker's own definitions before it starts.")
    Map<String, String> brokerProps = new LinkedHashMap<>();

    static final class SystemNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return dev.msgbench.cli.systems.Targets.names().iterator();
        }
    }
}
