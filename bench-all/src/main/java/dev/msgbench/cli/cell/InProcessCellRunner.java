package dev.msgbench.cli.cell;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.msgbench.cli.ErrorLines;
import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.FlagNames;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.live.MetricsEndpoint;
import dev.msgbench.cli.measure.MessageOptions;
import dev.msgbench.cli.measure.PinningOptions;
import dev.msgbench.cli.measure.TargetOptions;
import dev.msgbench.cli.workers.ClockSync;
import dev.msgbench.cli.workers.WorkerPlan;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.CleanupRegistry;
import dev.msgbench.core.broker.DataDisks;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.cpu.CpuWatch;
import dev.msgbench.core.cpu.PinnedJvm;
import dev.msgbench.core.cpu.SpinWindowChoice;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.fault.FaultTarget;
import dev.msgbench.core.fault.LocalBrokerFaultTarget;
import dev.msgbench.core.net.IsolatedHosts;
import dev.msgbench.core.net.Placement;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.result.RunningMarker;
import dev.msgbench.core.run.LiveFigures;
import dev.msgbench.core.run.LoadRun;
import dev.msgbench.core.run.Pacing;
import dev.msgbench.core.run.PlainProgress;
import dev.msgbench.core.run.ResultsNotWritten;
import dev.msgbench.core.run.RunContext;
import dev.msgbench.core.run.RunFailedException;
import dev.msgbench.core.run.RunSpec;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.core.time.NanoClock;

/**
 * Runs a cell in this JVM, as e2e and throughput do: pin this JVM if asked, start a local broker
 * unless --url is given, run the engine, and always stop the broker again.
 */
public final class InProcessCellRunner implements CellRunner {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final Io io;

    public InProcessCellRunner(Io io) {
        this.io = io;
    }

    @Override
    public CellOutcome run(ParsedCell cell, Path outputDir) {
        Path dir = outputDir.toAbsolutePath().normalize();
        try {
            // the next run (or report) tells a folder whose run was SIGKILLed from one still being written
            RunningMarker.write(dir);
            return CellOutcome.of(pinnedRun(cell, dir));
        } catch (RunFailedException e) {
            ExitCode exitCode = ErrorLines.report(e, io.err());
            return new CellOutcome(exitCode, e.partialResult(), ErrorLines.oneLine(e.getMessage()));
        } catch (ResultsNotWritten e) {
            ExitCode exitCode = ErrorLines.report(e, io.err());
            return new CellOutcome(exitCode, e.result(), ErrorLines.oneLine(e.getMessage()));
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            ExitCode exitCode = ErrorLines.report(e, io.err());
            String message = FlagNames.messageOf(e);
            return new CellOutcome(exitCode, null, message == null ? e.getClass().getSimpleName()
                    : ErrorLines.oneLine(message));
        } finally {
            // ended, with or without a result, but not killed
            RunningMarker.delete(dir);
        }
    }

    private RunResult pinnedRun(ParsedCell cell, Path dir) throws Exception {
        PinningOptions pinning = cell.pinning();
        // before the broker and every load thread: threads inherit the CPUs of the thread that starts them
        try (PinnedJvm pinned = pinning.cpus == null ? null : PinnedJvm.pin(pinning.cpus, Setting.CPUS)) {
            if (pinned != null) {
                io.err().println("load generator pinned to CPUs " + pinning.cpus + " (--cpus)");
            }
            // pinned alone, our JVM must not hand its CPUs to the broker it starts
            CpuList brokerCpus = pinning.brokerCpus != null ? pinning.brokerCpus
                    : pinned != null ? pinned.before() : null;
            // before the broker: a port in use costs no broker, and the endpoint outlives the run's every exit
            try (MetricsEndpoint metrics = cell.metrics().start(io.err())) {
                return run(cell, brokerCpus, dir, metrics.figures());
            }
        }
    }

    private RunResult run(ParsedCell cell, CpuList brokerCpus, Path dir, LiveFigures figures) throws Exception {
        SystemTarget system = cell.system();
        TargetOptions target = cell.target();
        PinningOptions pinning = cell.pinning();
        MessageOptions messages = cell.messages();
        Map<String, Object> brokerInfo = new LinkedHashMap<>();
        LocalBroker broker = null;
        // set only inside the client host of an --isolate run, which the command started
        Optional<IsolatedHosts> hosts = IsolatedHosts.fromEnvironment();
        if (hosts.isEmpty() && cell.args().contains("--isolate")) {
            throw new UserError("--isolate runs with e2e and throughput on the command line; not yet in a workload "
                    + "file (run, sweep)");
        }
        try {
            String url = target.url;
            BrokerSecurity brokerSecurity = target.brokerSecurity();
            ClientSecurity clientSecurity = target.remoteSecurity();
            if ((brokerSecurity != null || clientSecurity != ClientSecurity.NONE) && !system.securable()) {
                throw new UserError(system.needsBroker()
                        ? system.name() + " does not reach secured brokers yet: --secure, --ca, --user and "
                                + "--password-file are refused for it"
                        : "--secure, --ca, --user and --password-file mean nothing for " + system.name()
                                + ": it runs inside this JVM, with no broker to secure");
            }
            String secureRefused = brokerSecurity == null ? null : system.secureRefused(target.brokers);
            if (secureRefused != null) {
                throw new UserError("--secure: " + secureRefused);
            }
            if (!system.needsBroker()) {
                url = "in-process";
                brokerInfo.put("local", true);
                brokerInfo.put("nodes", 0);
            } else if (url == null) {
                io.err().println("starting a local " + system.name() + " broker (" + target.brokers + " node"
                        + (target.brokers == 1 ? "" : "s") + (brokerCpus == null ? "" : ", CPUs " + brokerCpus)
                        + ") ...");
                SystemTarget.BrokerRequest request = new SystemTarget.BrokerRequest(target.brokers, target.brokerProps,
                        dir.resolve("broker-logs"), messages.sizeBytes, brokerCpus, brokerSecurity,
                        hosts.map(Placement::new).orElse(Placement.LOOPBACK));
                DataDisks disks = cell.faults().dataDisks();
                if (target.forgetfulDisks && !disks.forgetful()) {
                    disks = DataDisks.FORGETFUL;
                }
                boolean forgetful = disks.forgetful();
                if (forgetful) {
                    io.err().println("its nodes run on forgetful disks (what they never sync is lost at a power cut"
                            + (cell.faults().needsForgetfulDisks() ? "" : "; no fault acts on them: --forgetful-disks")
                            + (disks == DataDisks.FORGETFUL_WRITE_THROUGH
                                    ? "; without the page cache, so that a full disk fails the broker's write)" : ")"));
                }
                broker = system.startLocalBroker(new SystemTarget.BrokerRequest(
                        request.broker().withDataDisks(disks), request.messageSizeBytes()));
                url = broker.url();
                clientSecurity = broker.clientSecurity();
                io.err().println(system.name() + " " + broker.version() + " ready at " + url);
                brokerInfo.put("local", true);
                brokerInfo.put("nodes", broker.nodeCount());
                brokerInfo.put("brokerProps", target.brokerProps);
                brokerInfo.put("logs", dir.resolve("broker-logs").toString());
                brokerInfo.put("cpus", pinning.brokerCpus == null ? null : pinning.brokerCpus.toString());
                brokerInfo.put("cpusAllowed", broker.cpusAllowed());
                if (forgetful) {
                    // a power cut's losses count only on such disks; latency and throughput are best measured without
                    brokerInfo.put("forgetfulDisks", true);
                    if (disks == DataDisks.FORGETFUL_WRITE_THROUGH) {
                        brokerInfo.put("forgetfulDisksWriteThrough", true);
                    }
                }
                hosts.ifPresent(h -> brokerInfo.put("isolation", h.settings(FlagNames.FLAGS)));
            } else {
                brokerInfo.put("local", false);
            }
            brokerInfo.put("url", url);
            brokerInfo.put("security", clientSecurity.toString());
            SystemTarget.ConnectRequest connect = new SystemTarget.ConnectRequest(url, target.acks, broker,
                    messages.sizeBytes, clientSecurity);
            WorkerPlan worker = cell.worker();
            RunSpec config = new RunSpec(cell.command(), system.name(), cell.pacing(), (int) messages.sizeBytes,
                    worker.producers(messages.producers), worker.consumers(messages.consumers), messages.seed,
                    messages.drainTimeout, READY_TIMEOUT, dir,
                    !cell.quiet() && io.terminal(), brokerInfo, pinning.cpus, cell.faults()).withSizes(messages.sizes)
                    .withPayload(messages.payload)
                    .withSharing(messages.sharing.sharing)
                    .withDestinations(messages.destinations.destinations())
                    .withKeys(messages.keys.recordKeys());
            SpinWindowChoice spin = messages.spinWindow.choose(system.needsBroker(), broker, url);
            CpuWatch.BrokerPids brokerProcesses = broker == null ? null : broker.processes();
            List<RunResult> warmups = new ArrayList<>();
            for (RunSpec warmupConfig : config.warmupMessages() > 0 ? config.warmupRuns() : List.<RunSpec>of()) {
                RunResult warmup = warmUp(cell, system, connect, warmupConfig, spin, brokerProcesses);
                if (warmup.status() == RunStatus.INTERRUPTED) {
                    // Ctrl+C during the warm-up: no measured run after it; what it did is in its folder
                    io.err().println("interrupted during a warm-up run; its partial results are in "
                            + warmupConfig.outputDir());
                    return warmup;
                }
                warmups.add(warmup);
            }
            try (MessagingSystem messaging = cell.echo().connect(system, connect, READY_TIMEOUT, cell.worker(),
                    messages.producers)) {
                NanoClock clock = NanoClock.system(spin.nanos());
                RunSpec measured = worker.applyTo(messages.backlog.applyTo(config, worker), cell.args(), ClockSync::read);
                RunContext context = RunContext.NONE.withSettingNames(FlagNames.FLAGS)
                        .withFaultTarget(broker == null ? FaultTarget.NONE
                                : new LocalBrokerFaultTarget(broker, messaging, hosts.orElse(null)))
                        .withCpuWatch(CpuWatch.ofThisMachine(brokerProcesses, clock::spunNanos))
                        .withSpinWindowChoice(spin.why())
                        .withLiveFigures(figures)
                        .withWarmups(warmups);
                if (!cell.quiet()) {
                    // on a terminal the live line shows progress; elsewhere plain lines every --progress-interval
                    Duration every = io.terminal() ? Duration.ZERO : cell.progressInterval();
                    context = context.withPlainProgress(new PlainProgress(io.err(), every));
                }
                LoadRun run = new LoadRun(measured, context, messaging, clock, io.out(),
                        config.progress() ? io.err() : null, io.terminal());
                CleanupRegistry.Registration registration = CleanupRegistry.register(cell.command() + " run",
                        () -> run.interruptAndAwait(15_000));
                try {
                    return run.execute();
                } catch (RunFailedException e) {
                    // the client's error names a timeout or a closed socket; the cause may be plainer
                    String gone = goneNodes(broker);
                    if (gone != null) {
                        io.err().println("the local " + system.name() + " broker is gone: " + gone);
                    }
                    throw e;
                } finally {
                    registration.deregister();
                }
            }
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }

    /**
     * One warm-up run (--warmup-messages; RunSpec#warmupRuns) on a connection of its own: the same
     * system and flags on destinations of its own, without faults or backlog, its result in its
     * folder under the run's warmup/. Its failure ends the command before the measured run, naming
     * that folder.
     */
    private RunResult warmUp(ParsedCell cell, SystemTarget system, SystemTarget.ConnectRequest connect,
                             RunSpec config, SpinWindowChoice spin, CpuWatch.BrokerPids brokerProcesses) throws Exception {
        MessageOptions messages = cell.messages();
        io.err().printf(Locale.US, "warm-up run: %,d messages, not measured (results in %s) ...%n",
                ((Pacing.Unpaced) config.pacing()).messages(), config.outputDir());
        try (MessagingSystem messaging = cell.echo().connect(system, connect, READY_TIMEOUT, cell.worker(),
                messages.producers)) {
            NanoClock clock = NanoClock.system(spin.nanos());
            RunContext context = RunContext.NONE.withSettingNames(FlagNames.FLAGS)
                    .withCpuWatch(CpuWatch.ofThisMachine(brokerProcesses, clock::spunNanos))
                    .withSpinWindowChoice(spin.why());
            LoadRun run = new LoadRun(config, context, messaging, clock, new PrintStream(OutputStream.nullOutputStream()),
                    null, false);
            CleanupRegistry.Registration registration = CleanupRegistry.register("warm-up run",
                    () -> run.interruptAndAwait(15_000));
            try {
                RunResult result = run.execute();
                io.err().printf(Locale.US, "warm-up run done: %,d sent, %,d received, lost %,d%n",
                        result.counts().sent(), result.counts().received(), result.counts().lost());
                return result;
            } finally {
                registration.deregister();
            }
        }
    }

    /** "node 1 killed by signal 9 (SIGKILL)" for each node of a local broker that ended; null when none did. */
    static String goneNodes(LocalBroker broker) {
        if (broker == null) {
            return null;
        }
        List<String> gone = new ArrayList<>();
        for (int node = 1; node <= broker.nodeCount(); node++) {
            String exit = broker.exitDescription(node);
            if (exit != null) {
                gone.add("node " + node + " " + exit);
            }
        }
        return gone.isEmpty() ? null : String.join(", ", gone);
    }
}
