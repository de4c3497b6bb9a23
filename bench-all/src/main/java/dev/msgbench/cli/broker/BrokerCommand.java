package dev.msgbench.cli.broker;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import dev.msgbench.cli.Converters;
import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.isolate.BrokerIsolateOptions;
import dev.msgbench.cli.isolate.IsolatedRun;
import dev.msgbench.cli.measure.PinningOptions;
import dev.msgbench.core.Setting;
import dev.msgbench.core.broker.CleanupRegistry;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.broker.TempDirs;
import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.net.IsolatedHosts;
import dev.msgbench.core.net.LinkShaping;
import dev.msgbench.core.net.Placement;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.LocalSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.system.SystemTarget;
import dev.msgbench.core.system.Systems;
import dev.msgbench.core.system.TimeConverter;
import dev.msgbench.mqtt.MqttTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "broker", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "The local broker the benchmarks use, in the foreground.",
                "",
                "Starts it and prints its address, so that people and other tools can use it. Ctrl+C stops it "
                        + "and removes its data.",
                "",
                "On a machine with few cores, give it CPUs of its own (--broker-cpus 0) and run the load generator "
                        + "on the others (taskset -c 1 ...): sharing cores, each waits for the other, and that wait "
                        + "shows up as send delay and tail latency that belong to neither.",
                ""},
        footer = {"", "Examples:",
                "  broker kafka",
                "  broker kafka --brokers 3 --broker-prop log.flush.interval.messages=1",
                "  broker nats --broker-cpus 0",
                "  broker mqtt --mqtt-broker rabbitmq",
                "  broker nats --isolate --clients 4    (root: the URL, then each worker's `ip netns exec NS`)",
                "  broker redis --secure"})
public final class BrokerCommand implements Callable<Integer> {

    private final Io io;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SYSTEM", description = "Which broker: ${COMPLETION-CANDIDATES}.",
            completionCandidates = BrokerNames.class)
    String system;

    @Option(names = "--brokers", paramLabel = "N", defaultValue = "1", description = "Nodes (default: ${DEFAULT-VALUE}).")
    int brokers;

    @Option(names = "--broker-prop", paramLabel = "KEY=VALUE", description = "A server setting (repeatable).")
    Map<String, String> brokerProps = new LinkedHashMap<>();

    @Option(names = "--broker-cpus", paramLabel = "LIST", converter = Converters.Cpus.class,
            description = PinningOptions.BROKER_CPUS)
    CpuList brokerCpus;

    @Option(names = "--logs", paramLabel = "DIR", description = "Where the broker's logs go (default: a temporary folder, removed on exit).")
    Path logs;

    @Option(names = "--secure",
            description = "TLS with a throwaway CA and certificate (made with openssl, in the broker's temporary folder) "
                    + "and a login: user msgbench, a random password written to an owner-only file whose path is "
                    + "printed (the password itself never is).")
    boolean secure;

    @Option(names = "--password-file", paramLabel = "FILE",
            description = "With --secure: the password to demand instead of a random one.")
    Path passwordFile;

    @Option(names = "--mqtt-broker", paramLabel = "BROKER",
            description = "With mqtt: which MQTT broker, mosquitto (the default), rabbitmq (its MQTT plugin) or nats "
                    + "(nats-server's MQTT listener).")
    String mqttBroker;

    @Option(names = "--stop-after", paramLabel = "TIME", converter = TimeConverter.class,
            description = "Stop by itself after this long (default: run until Ctrl+C).")
    Duration stopAfter;

    @Mixin
    BrokerIsolateOptions isolation = new BrokerIsolateOptions();

    public BrokerCommand(Io io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        SystemTarget target = null;
        for (SystemTarget t : Systems.create()) {
            if (t.name().equals(system) && t.needsBroker()) {
                target = t;
            }
        }
        if (target == null) {
            throw new ParameterException(spec.commandLine(), "SYSTEM must be one of "
                    + String.join(", ", Systems.brokerNames()) + ", got '" + system + "'");
        }
        if (mqttBroker != null) {
            if (!(target instanceof MqttTarget mqtt)) {
                throw new ParameterException(spec.commandLine(), "--mqtt-broker applies to broker mqtt only, not "
                        + system);
            }
            mqtt.useBroker(mqttBroker);
        }
        if (brokers < 1) {
            throw new ParameterException(spec.commandLine(), "--brokers must be at least 1, got " + brokers);
        }
        if (brokerCpus != null) {
            CpuAffinity.requireTaskset(Setting.BROKER_CPUS);
        }
        if (passwordFile != null && !secure) {
            throw new ParameterException(spec.commandLine(), "--password-file needs --secure (the login it sets)");
        }
        if (secure && !target.securable()) {
            throw new ParameterException(spec.commandLine(), system + " cannot be started secured yet (--secure)");
        }
        String secureRefused = secure ? target.secureRefused(brokers) : null;
        if (secureRefused != null) {
            throw new ParameterException(spec.commandLine(), "--secure: " + secureRefused);
        }
        LinkShaping shaping = isolation.check(target, brokers);
        if (isolation.makesHosts()) {
            List<String> args = new ArrayList<>(List.of(spec.name()));
            args.addAll(spec.commandLine().getParseResult().expandedArgs());
            return IsolatedRun.runWithClients(args, isolation.clientHosts(), brokers, shaping,
                    spec.commandLine().getOut(), spec.commandLine().getErr());
        }
        BrokerSecurity security = !secure ? null : passwordFile == null ? BrokerSecurity.generated()
                : BrokerSecurity.generated().withPassword(Secret.fromFile("--password-file", passwordFile));
        Path logDir = logs != null ? logs : Files.createTempDirectory("msgbench-broker-logs-");
        // registered before the broker, so that a SIGTERM's shutdown hook, which closes newest
        // first, removes the folder after the broker that writes into it has stopped
        CleanupRegistry.Registration logCleanup = logs != null ? null
                : CleanupRegistry.register("the broker's log folder " + logDir, () -> TempDirs.deleteRecursively(logDir));
        try (LocalBroker broker = target.startLocalBroker(new SystemTarget.BrokerRequest(brokers, brokerProps, logDir, 1024,
                brokerCpus, security, IsolatedHosts.fromEnvironment().map(Placement::new).orElse(Placement.LOOPBACK)))) {
            io.out().println(broker.url());
            BrokerIsolateOptions.printWorkerPrefixes(io.out());
            LocalSecurity secured = broker.localSecurity();
            if (secured == null && !broker.clientFlags().isEmpty()) {
                io.err().println("measure it with: e2e --system " + system + " --url " + broker.url() + " "
                        + String.join(" ", broker.clientFlags()));
            }
            if (secured != null) {
                io.err().println("TLS: trust " + secured.pki().caFile() + "; client certificate " + secured.pki().clientCertFile()
                        + " with key " + secured.pki().clientKeyFile() + "; user " + secured.login().user()
                        + ", password in " + secured.passwordFile() + " (owner-only)");
                io.err().println("measure it with: e2e --system " + system + " --url " + broker.url() + " --ca "
                        + secured.pki().caFile() + " --user " + secured.login().user() + " --password-file "
                        + secured.passwordFile() + broker.clientFlags().stream().map(f -> " " + f)
                        .collect(Collectors.joining()));
            }
            if (!broker.nativeToolUrl().equals(broker.url())) {
                // scripts/compare-native reads it: the native tool speaks another protocol to the same node
                io.err().println("native tool url: " + broker.nativeToolUrl());
            }
            io.err().println(system + " " + broker.version() + " is running with " + broker.nodeCount() + " node"
                    + (broker.nodeCount() == 1 ? "" : "s") + " on CPUs " + String.join(" / ", broker.cpusAllowed())
                    + "; logs in " + broker.logDir() + "; Ctrl+C stops it");
            if (stopAfter != null) {
                Thread.sleep(stopAfter.toMillis());
            } else {
                Thread.currentThread().join();
            }
        } finally {
            if (logCleanup != null) {
                logCleanup.deregister();
                TempDirs.deleteRecursively(logDir);
            }
        }
        return ExitCode.OK.code();
    }

    static final class BrokerNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Systems.brokerNames().iterator();
        }
    }
}
