package dev.msgbench.cli.measure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

import dev.msgbench.cli.Converters;
import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.Limits;
import dev.msgbench.cli.workers.WorkerPlan;
import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.broker.CleanupRegistry;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.echo.CloseAll;
import dev.msgbench.core.echo.EchoResponder;
import dev.msgbench.core.echo.EchoRoute;
import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.run.WorkerRole;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.core.system.TimeConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "responder", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "The far side of --pattern echo, for a measuring side on another host.",
                "",
                "Reads every message of run ID's outbound destination and publishes it back unchanged on ID-back, "
                        + "where `e2e --pattern echo --responder external --run-id ID` reads it and measures the round "
                        + "trip on its own clock: no clock of this host is ever read. Start it first; stop it "
                        + "(Ctrl+C or --duration) after the measuring run ended. Prints a line a second.",
                ""},
        footer = {"", "Examples:",
                "  responder --system nats --url nats://broker:4222 --run-id cell1",
                "  responder --system redis --url redis://broker:6379 --run-id cell1 --producers 4 --duration 5m",
                "  responder --system nats --url nats://broker:4222 --run-id cell1 --producers 8 --workers 4",
                "  then, on the measuring host:",
                "  e2e --system nats --url nats://broker:4222 --pattern echo --responder external --run-id cell1"})
public final class ResponderCommand implements Callable<Integer> {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final Io io;
    private final Map<String, SystemTarget> targets = new LinkedHashMap<>();

    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions target;

    @Option(names = "--run-id", paramLabel = "ID", required = true,
            description = "The measuring side's --run-id: the destinations are ID (read) and ID-back (written).")
    String runId;

    @Option(names = "--producers", paramLabel = "N", defaultValue = "1",
            description = "The measuring side's --producers: a destination each (default: ${DEFAULT-VALUE}).")
    int producers;

    @Option(names = "--consumers", paramLabel = "N", defaultValue = "1",
            description = "Subscriptions reading the outbound destination, each on a connection of its own "
                    + "(default: ${DEFAULT-VALUE}).")
    int consumers;

    @Option(names = "--size", paramLabel = "SIZE", defaultValue = "1KiB", converter = Converters.Size.class,
            description = "The measuring side's --size, checked against the broker's limit (default: ${DEFAULT-VALUE}).")
    long sizeBytes;

    @Option(names = "--workers", paramLabel = "N",
            description = "The measuring side's --workers: echo for each worker I on its own destinations (ID-wI and "
                    + "ID-wI-back), with its share of --producers.")
    Integer workers;

    @Option(names = "--worker-index", paramLabel = "I",
            description = "With --workers: echo for worker I only (default: for every worker, in this process).")
    Integer workerIndex;

    @Option(names = "--duration", paramLabel = "TIME", converter = TimeConverter.class,
            description = "Stop by itself after this long (default: run until Ctrl+C).")
    Duration duration;

    /** @param targets every system, each also added to this command as a mixin of its flags */
    public ResponderCommand(Io io, List<SystemTarget> targets) {
        this.io = io;
        targets.forEach(t -> this.targets.put(t.name(), t));
    }

    @Override
    public Integer call() throws Exception {
        SystemTarget system = checkFlags();
        SystemTarget.ConnectRequest request = new SystemTarget.ConnectRequest(target.url, target.acks, null, sizeBytes,
                target.remoteSecurity());
        FirstFailure failures = new FirstFailure();
        CountDownLatch stop = new CountDownLatch(1);
        List<Route> routes = routes();
        List<Session> sessions = new ArrayList<>();
        try {
            for (Route route : routes) {
                Session session = new Session(system.connect(request), system.connect(request));
                sessions.add(session);
                RunPlan plan = new RunPlan(route.runId, (int) sizeBytes, route.producers, consumers);
                session.outbound.prepare(EchoRoute.outbound(route.runId, plan, consumers));
                // this side only publishes on the return destination: the measuring side reads it
                session.back.prepare(EchoRoute.back(route.runId, plan, 0));
                session.responder = EchoResponder.start(session.outbound, session.back, route.producers, consumers,
                        READY_TIMEOUT, error -> {
                            failures.add(error);
                            stop.countDown();
                        });
            }
            CleanupRegistry.Registration onCtrlC = CleanupRegistry.register("the echo responder", () -> {
                stop.countDown();
                CloseAll.inOrder(sessions);
            });
            try {
                io.out().println("responder ready: echoing " + String.join(", ", routes.stream().map(r -> r.runId
                        + " back on " + EchoRoute.backRunId(r.runId)).toList()) + " (" + system.name() + " at "
                        + target.url + ", " + producers + " producer stream" + (producers == 1 ? "" : "s")
                        + (workers == null ? "" : " of " + workers + " workers") + ")"
                        + (duration == null ? "; Ctrl+C stops it" : ""));
                reportEverySecond(sessions, stop);
            } finally {
                onCtrlC.deregister();
            }
        } catch (Exception | Error e) {
            try {
                CloseAll.inOrder(sessions);
            } catch (Exception closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        // each session closes once, also when Ctrl+C's hook closed it first
        CloseAll.inOrder(sessions);
        if (failures.first() != null) {
            throw failures.reported("the echo responder");
        }
        return ExitCode.OK.code();
    }

    /** One responder's destinations: the run id, or with --workers each served worker's. */
    private record Route(String runId, int producers) {
    }

    private List<Route> routes() {
        if (workers == null) {
            return List.of(new Route(runId, producers));
        }
        List<Route> routes = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            if (workerIndex == null || workerIndex == i) {
                routes.add(new Route(runId + WorkerRole.runIdSuffix(i), WorkerPlan.share(producers, workers, i)));
            }
        }
        return routes;
    }

    private void reportEverySecond(List<Session> sessions, CountDownLatch stop) throws InterruptedException {
        long end = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
        long before = 0;
        while (true) {
            long wait = Math.min(TimeUnit.SECONDS.toNanos(1), end - System.nanoTime());
            if (wait <= 0 || stop.await(wait, TimeUnit.NANOSECONDS)) {
                return;
            }
            long echoed = sum(sessions, EchoResponder::echoed);
            io.out().printf(Locale.US, "echoed %,d (%,d in the last second), acknowledged %,d, ignored %,d%n",
                    echoed, echoed - before, sum(sessions, EchoResponder::acked), sum(sessions, EchoResponder::ignored));
            before = echoed;
        }
    }

    private static long sum(List<Session> sessions, ToLongFunction<EchoResponder> count) {
        return sessions.stream().filter(s -> s.responder != null).mapToLong(s -> count.applyAsLong(s.responder)).sum();
    }

    private SystemTarget checkFlags() {
        SystemTarget system = new SystemSelection(spec, targets).select(target, new PinningOptions());
        if (!system.needsBroker()) {
            throw error("--system " + system.name() + " runs inside one JVM: a responder needs a broker given with --url");
        }
        if (target.url == null) {
            throw error("responder needs --url: the broker the measuring side uses");
        }
        if (producers < 1 || consumers < 1) {
            throw error((producers < 1 ? "--producers" : "--consumers") + " must be at least 1, got "
                    + Math.min(producers, consumers));
        }
        Limits.requireClientsAtMost(spec, "--producers", producers);
        Limits.requireClientsAtMost(spec, "--consumers", consumers);
        if (sizeBytes < PayloadHeader.BYTES || sizeBytes > MessageOptions.MAX_SIZE_BYTES) {
            throw error("--size must be " + PayloadHeader.BYTES + " B to 64MiB, got " + sizeBytes + " B");
        }
        if (!runId.matches(EchoOptions.RUN_ID)) {
            throw error(EchoOptions.runIdRule(runId));
        }
        if (workers == null && workerIndex != null) {
            throw error("--worker-index needs --workers, the number of workers of the measuring side");
        }
        if (workers != null && (workers < 1 || producers < workers)) {
            throw error(workers < 1 ? "--workers must be at least 1, got " + workers : "--producers " + producers
                    + " cannot be split over --workers " + workers + ": give the measuring side's --producers, the "
                    + "total of all workers");
        }
        if (workerIndex != null && (workerIndex < 0 || workerIndex >= workers)) {
            throw error("--worker-index must be from 0 to " + (workers - 1) + " (--workers " + workers + "), got "
                    + workerIndex);
        }
        if (duration != null && (duration.isZero() || duration.isNegative())) {
            throw error("--duration must be longer than 0, got " + duration.toMillis() + " ms");
        }
        return system;
    }

    private ParameterException error(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** Both systems and the responder, closed once: by the command, or by Ctrl+C's shutdown hook. */
    private static final class Session implements AutoCloseable {
        final MessagingSystem outbound;
        final MessagingSystem back;
        EchoResponder responder;
        private boolean closed;

        Session(MessagingSystem outbound, MessagingSystem back) {
            this.outbound = outbound;
            this.back = back;
        }

        /** The responder first, so that nothing is echoed through a closed system. */
        @Override
        public synchronized void close() throws Exception {
            if (closed) {
                return;
            }
            closed = true;
            CloseAll.inOrder(Arrays.asList(responder, outbound, back));
        }
    }
}
