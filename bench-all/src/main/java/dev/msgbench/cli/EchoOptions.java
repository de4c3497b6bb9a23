package dev.msgbench.cli;

import java.time.Duration;

import dev.msgbench.cli.systems.SystemTarget;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.echo.EchoSystem;
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
final class EchoOptions {

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

    boolean echo() {
        return ECHO.equals(pattern);
    }

    /** Checks the echo flags against each other, the system and --url; throws naming the flag. */
    void validate(SystemTarget system, TargetOptions target) {
        boolean external = EXTERNAL.equals(responder);
        if (!echo() && (external || runId != null)) {
            throw error((external ? "--responder external" : "--run-id") + " needs --pattern echo, got --pattern " + pattern);
        }
        if (echo() && "nats".equals(system.name()) && spec.commandLine().getParseResult().hasMatchedOption("--nats-pattern")
                && !PUBSUB.equals(spec.commandLine().getParseResult().matchedOption("--nats-pattern").stringValues().get(0))) {
            throw error("--pattern echo and --nats-pattern request-reply are two round trips; give one of them");
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
    }

    /** The system the engine runs: the target's own, or two of its instances joined by a responder. */
    MessagingSystem connect(SystemTarget system, SystemTarget.ConnectRequest request, Duration readyTimeout) {
        if (!echo()) {
            return system.connect(request);
        }
        MessagingSystem outbound = system.connect(request);
        MessagingSystem back = system.connect(request);
        return EXTERNAL.equals(responder) ? EchoSystem.withExternalResponder(outbound, back, runId)
                : EchoSystem.withResponder(outbound, back, readyTimeout);
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
