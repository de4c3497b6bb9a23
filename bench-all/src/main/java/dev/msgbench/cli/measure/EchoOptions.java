package dev.msgbench.cli.measure;

import java.time.Duration;

import dev.msgbench.cli.FlagNames;
import dev.msgbench.cli.workers.WorkerPlan;
import dev.msgbench.core.Phrase;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.echo.EchoSystem;
import dev.msgbench.core.result.Redaction;
import dev.msgbench.core.run.LoadRun;
import dev.msgbench.core.run.WorkerRole;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.core.system.TimeConverter;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * --pattern echo: the round trip through a responder, measured on this JVM's one clock, for
 * producers and consumers on different hosts (docs/usage.md, "Echo: one clock across hosts").
 */
public final class EchoOptions {

    static final String PUBSUB = "pubsub";
    static final String ECHO = "echo";
    static final String IN_PROCESS = "in-process";
    static final String EXTERNAL = "external";
    /** A run id names topics, subjects, queues and keys on every system. */
    static final String RUN_ID = "[A-Za-z0-9_-]{1,100}";

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--pattern", paramLabel = "PATTERN", defaultValue = PUBSUB, converter = PatternName.class,
            description = "pubsub: consumers read what producers publish (one way). echo: a responder publishes every "
                    + "message back on a return destination and the consumers read that: latency is the round trip "
                    + "producer -> broker -> responder -> broker -> consumer on one clock, for any system "
                    + "(default: ${DEFAULT-VALUE}).")
    String pattern;

    @Option(names = "--responder", paramLabel = "WHERE", defaultValue = IN_PROCESS, converter = ResponderPlace.class,
            description = "With --pattern echo: in-process (a responder in this JVM), or external: one started with "
                    + "`responder --run-id ID` on another host, which must be running before this run starts "
                    + "(default: ${DEFAULT-VALUE}).")
    String responder;

    @Option(names = "--run-id", paramLabel = "ID",
            description = "With --responder external: names the run's destinations (ID and ID-back); give the "
                    + "responder the same.")
    String runId;

    @Option(names = "--first-echo-timeout", paramLabel = "TIME", defaultValue = "10s", converter = TimeConverter.class,
            description = "With --responder external: when no echo has come back this long after the first send, the "
                    + "run fails with a line naming the run id and the responder to start (default: ${DEFAULT-VALUE}).")
    Duration firstEchoTimeout;

    boolean echo() {
        return ECHO.equals(pattern);
    }

    /** Checks the echo flags against each other, the system, --url and the run's destinations and keys; throws naming the flag. */
    void validate(SystemTarget system, TargetOptions target, MessageOptions messages) {
        boolean external = EXTERNAL.equals(responder);
        if (!echo() && (external || runId != null)) {
            throw error((external ? "--responder external" : "--run-id") + " needs --pattern echo, got --pattern " + pattern);
        }
        if (echo() && system.echoRefused() != null) {
            throw error(system.echoRefused());
        }
        if (external && target.url == null) {
            throw error("--responder external needs --url: the broker the responder on the other host uses too");
        }
        if (external && runId == null) {
            throw error("--responder external needs --run-id: the id the responder was started with");
        }
        if (!external && runId != null) {
            throw error("--run-id names the destinations for a responder elsewhere; it needs --responder external");
        }
        if (runId != null && !runId.matches(RUN_ID)) {
            throw error(runIdRule(runId));
        }
        if (!external && spec.commandLine().getParseResult().hasMatchedOption("--first-echo-timeout")) {
            throw error("--first-echo-timeout waits for a responder elsewhere; it needs --responder external");
        }
        if (echo() && messages.consumers < 1) {
            throw error(FlagNames.render(EchoSystem.consumersRefused(messages.consumers)));
        }
        if (echo()) {
            Phrase destinations = EchoSystem.destinationsRefused(messages.destinations.topics,
                    messages.destinations.subscriptionsPerTopic);
            if (destinations != null) {
                throw error(FlagNames.render(destinations));
            }
            if (!messages.keys.recordKeys().isNone()) {
                throw error(FlagNames.render(LoadRun.keysRefused(messages.keys.recordKeys(), EchoSystem.ECHO_PATTERN,
                        EchoSystem.KEYS_REFUSED)));
            }
        }
        if (firstEchoTimeout.isZero() || firstEchoTimeout.isNegative()) {
            throw error("--first-echo-timeout must be longer than 0, got " + firstEchoTimeout.toMillis() + " ms");
        }
    }

    /**
     * The system the engine runs: the target's own, or two of its instances joined by a responder.
     *
     * @param worker    this process's part of the run: a worker's destinations end in its suffix
     *                  ({@code ID-wI}), which a responder elsewhere started with --workers serves too
     * @param producers --producers as given (with --workers, the total of all workers)
     */
    public MessagingSystem connect(SystemTarget system, SystemTarget.ConnectRequest request, Duration readyTimeout,
                            WorkerPlan worker, int producers) {
        if (!echo()) {
            return system.connect(request);
        }
        MessagingSystem outbound = system.connect(request);
        MessagingSystem back = system.connect(request);
        if (!EXTERNAL.equals(responder)) {
            return EchoSystem.withResponder(outbound, back, readyTimeout);
        }
        String workerRunId = worker.worker() ? runId + WorkerRole.runIdSuffix(worker.index()) : runId;
        String startIt = "responder --system " + system.name() + " --url " + Redaction.redactUrl(request.url())
                + " --run-id " + runId + " --producers " + producers
                + (worker.worker() ? " --workers " + worker.count() : "");
        return EchoSystem.withExternalResponder(outbound, back, workerRunId, firstEchoTimeout, startIt,
                FlagNames.FLAGS);
    }

    static String runIdRule(String runId) {
        return "--run-id must be 1 to 100 letters, digits, '-' or '_' (it names topics, subjects, queues and keys), got '"
                + runId + "'";
    }

    private ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    static final class PatternName implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!PUBSUB.equals(value) && !ECHO.equals(value)) {
                throw new TypeConversionException("must be pubsub or echo, got '" + value + "'");
            }
            return value;
        }
    }

    static final class ResponderPlace implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!IN_PROCESS.equals(value) && !EXTERNAL.equals(value)) {
                throw new TypeConversionException("must be in-process or external, got '" + value + "'");
            }
            return value;
        }
    }
}
