package dev.msgbench.cli;

import dev.msgbench.core.ToolVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;

@Command(name = "java -jar bench-all.jar",
        mixinStandardHelpOptions = true,
        versionProvider = RootCommand.Version.class,
        synopsisSubcommandLabel = "COMMAND",
        description = {
                "Open-loop latency benchmarks for messaging systems.",
                "",
                "Messages are sent on a schedule fixed in advance and never wait for replies; latency is",
                "measured from each message's intended send time (so stalls are not hidden), recorded in",
                "full in HdrHistograms up to p99.9999 and the max, with loss, duplicates and reordering",
                "counted from sequence numbers.",
                ""},
        footer = {"", "Examples:",
                "  java -jar bench-all.jar e2e --acks all",
                "  java -jar bench-all.jar e2e --rate 2000 --size 256B --duration 1m",
                "  java -jar bench-all.jar run workloads/e3-message-queue-latency.yaml --scale 0.1",
                "  java -jar bench-all.jar sweep --system nats --objective 'p99.9<=10ms'",
                "  java -jar bench-all.jar broker kafka --brokers 3"})
public final class RootCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {ToolVersion.NAME + " " + ToolVersion.version(),
                    "JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version")};
        }
    }
}
