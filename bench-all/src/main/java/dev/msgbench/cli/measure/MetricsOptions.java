package dev.msgbench.cli.measure;

import java.io.PrintStream;

import dev.msgbench.cli.isolate.IsolateOptions;
import dev.msgbench.cli.live.MetricsEndpoint;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** --metrics-port: the run's figures served live for Prometheus. */
public final class MetricsOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Serve the run's figures live at http://127.0.0.1:PORT/metrics in the Prometheus and "
                    + "OpenMetrics text formats (sent, received, lost so far, rates, each interval's latency "
                    + "percentiles, faults, phase) from before the run until it ends; 0 = a free port, printed. "
                    + "docs/usage.md lists the metrics and has a Grafana dashboard.")
    Integer port;

    @Option(names = "--metrics-bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "With --metrics-port: the address to listen on, e.g. 0.0.0.0 for a Prometheus on another "
                    + "host (default: ${DEFAULT-VALUE}).")
    String bind;

    /**
     * The checked settings: a port in range, and no --isolate, whose run goes on in a network
     * namespace this host's 127.0.0.1 does not reach.
     */
    Settings check(IsolateOptions isolation) {
        if (port == null) {
            if (spec.commandLine().getParseResult().hasMatchedOption("--metrics-bind")) {
                throw error("--metrics-bind sets where --metrics-port listens; add --metrics-port");
            }
            return Settings.NONE;
        }
        if (port < 0 || port > 65_535) {
            throw error("--metrics-port must be 0 (a free port) to 65535, got " + port);
        }
        if (isolation.isolate) {
            throw error("--metrics-port with --isolate: the run goes on inside a network namespace of its own, "
                    + "out of this host's reach; run without --isolate to watch it live");
        }
        return new Settings(bind, port);
    }

    private ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** Where the endpoint listens; {@link #NONE} for no endpoint. */
    public record Settings(String bindAddress, int port) {

        public static final Settings NONE = new Settings(null, -1);

        /** Started before the run, closed after it, whatever happens: try-with-resources. */
        public MetricsEndpoint start(PrintStream err) {
            return port < 0 ? MetricsEndpoint.NONE : MetricsEndpoint.start(bindAddress, port, err);
        }
    }
}
