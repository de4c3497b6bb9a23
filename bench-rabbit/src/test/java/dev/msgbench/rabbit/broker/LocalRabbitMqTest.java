package dev.msgbench.rabbit.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.broker.FreePorts;
import dev.msgbench.core.broker.ProcStat;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.testing.NeedsBroker;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real rabbitmq-server from Debian's package. Start times go to the surefire output file. */
@NeedsBroker
class LocalRabbitMqTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(90)
    void aNodeServesAmqpOnLoopbackAndCloseLeavesNoProcessPortOrFileBehind() throws Exception {
        long started = System.nanoTime();
        LocalRabbitMq node = LocalRabbitMq.start(RabbitBrokerSpec.of(BrokerSpec.defaults()
                .withLogDir(dir.resolve("logs")).withProps(Map.of("max_message_size", "2000000"))), dir);
        System.out.printf("node ready in %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        long pid = node.pid(1);
        List<ProcessHandle> tree = ProcessHandle.of(pid).orElseThrow().descendants().collect(Collectors.toList());
        Path tempDir;
        int port = URI.create(node.url()).getPort();
        try (Stream<Path> made = Files.list(dir)) {
            tempDir = made.filter(p -> p.getFileName().toString().startsWith("msgbench-rabbitmq-")).findFirst().orElseThrow();
        }
        try {
            assertTrue(node.url().matches("amqp://127\\.0\\.0\\.1:\\d+"), node.url());
            assertTrue(node.version().matches("3\\.\\d+\\.\\d+"), node.version());
            assertEquals("2000000", node.conf().get("max_message_size"));
            assertTrue(tree.stream().anyMatch(h -> h.info().command().orElse("").endsWith("beam.smp")),
                    "the Erlang VM runs under the start script");
            assertEquals("hello", roundTrip(port, "hello"));
            try (Stream<Path> mnesia = Files.list(node.dataDir(1))) {
                assertTrue(mnesia.findAny().isPresent(), "the node keeps its Mnesia database in its data dir");
            }
            String log = Files.readString(node.logFile());
            // "Server startup complete" comes after the listener answers, so it may not be written yet
            assertTrue(log.contains("Starting RabbitMQ"), "the node logs into rabbitmq-1.log");
        } finally {
            long closing = System.nanoTime();
            node.close();
            System.out.printf("node closed in %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closing));
        }

        assertFalse(ProcessHandle.of(pid).map(ProcStat::isRunning).orElse(false), "start script ended");
        for (ProcessHandle h : tree) {
            assertFalse(ProcStat.isRunning(h), "descendant " + h.pid() + " " + h.info().command().orElse("") + " ended");
        }
        assertEquals(List.of(), epmdsOn(tempDir), "no epmd of ours survives");
        assertFalse(Files.exists(tempDir), "temp dir deleted");
        String log = Files.readString(dir.resolve("logs").resolve("rabbitmq-1.log"));
        assertTrue(log.contains("SIGTERM received - shutting down"), "the node stopped cleanly");
        assertFalse(log.contains("[error]"), "and logged no error on its way down");
        FreePorts.requireFree(port);
        node.close();
    }

    @Test
    @Timeout(60)
    void aSettingTheNodeRejectsFailsTheStartNamingTheLogAndStopsEverything() throws Exception {
        UserError e = assertThrows(UserError.class, () -> LocalRabbitMq.start(RabbitBrokerSpec.of(BrokerSpec.defaults()
                .withLogDir(dir.resolve("logs")).withProps(Map.of("no_such_setting", "1"))), dir));
        assertEquals("--broker-prop: rabbitmq-server rejected its configuration (Conf file attempted to set unknown "
                + "variable: no_such_setting); see " + dir.resolve("logs").resolve("rabbitmq-1.log"), e.getMessage());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(dir.resolve("logs")), left.collect(Collectors.toList()), "temp dir removed");
        }
    }

    /** Debian's install missing says to install it; this one, given elsewhere, can only come from --rabbitmq-bin. */
    @Test
    void aMissingInstallationElsewhereNamesRabbitMqBin() {
        UserError e = assertThrows(UserError.class, () -> LocalRabbitMq.start(RabbitBrokerSpec.defaults()
                .withInstallDir(dir.resolve("nowhere")), dir));
        assertEquals("--rabbitmq-bin: no rabbitmq-server in " + dir.resolve("nowhere") + "; give the directory of "
                + "RabbitMQ's scripts (scripts/rabbitmq-trixie installs RabbitMQ 4.0 with its scripts in "
                + "~/.cache/msgbench/rabbitmq-trixie/usr/lib/rabbitmq/bin)", e.getMessage());
    }

    @Test
    void settingsThatMsgbenchChoosesCannotBeOverridden() {
        UserError e = assertThrows(UserError.class, () -> RabbitBrokerSpec.of(BrokerSpec.defaults()
                .withProps(Map.of("listeners.tcp.default", "5672"))));
        assertEquals("--broker-prop listeners.tcp.default cannot be set: msgbench chooses it for every run "
                + "(ports, log files, cluster peers); remove it", e.getMessage());
    }

    @Test
    void maxMessageSizeIsRaisedOnlyWhenAMessageWouldNotFitTheDefaultAndNeverOverTheUsersValue() {
        assertEquals(Map.of(), RabbitBrokerSpec.defaults().withRoomForMessagesOf(1024 * 1024).broker().props(),
                "1 MiB fits the default 128 MiB");
        assertEquals(Map.of("max_message_size", Long.toString(200_000_000L + 64 * 1024)),
                RabbitBrokerSpec.defaults().withRoomForMessagesOf(200_000_000L).broker().props());
        assertEquals(Map.of("max_message_size", "1000"), RabbitBrokerSpec.of(BrokerSpec.defaults()
                .withProps(Map.of("max_message_size", "1000"))).withRoomForMessagesOf(200_000_000L).broker().props());
    }

    @Test
    void noNodesIsRefused() {
        UserError e = assertThrows(UserError.class, () -> RabbitBrokerSpec.of(BrokerSpec.defaults().withNodes(0)));
        assertEquals("brokers must be at least 1, got 0", e.getMessage());
    }

    private static String roundTrip(int port, String text) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setPort(port);
        factory.setHost("127.0.0.1");
        try (Connection connection = factory.newConnection(); Channel channel = connection.createChannel()) {
            String queue = channel.queueDeclare().getQueue();
            channel.basicPublish("", queue, null, text.getBytes(StandardCharsets.UTF_8));
            GetResponse response = null;
            for (int i = 0; i < 100 && response == null; i++) {
                response = channel.basicGet(queue, true);
                Thread.sleep(10);
            }
            return response == null ? null : new String(response.getBody(), StandardCharsets.UTF_8);
        }
    }

    /** epmd processes whose command line points at our port are identified by the temp dir cwd. */
    private static List<Long> epmdsOn(Path tempDir) {
        return ProcessHandle.allProcesses()
                .filter(h -> h.info().command().orElse("").endsWith("epmd"))
                .filter(ProcStat::isRunning)
                .filter(h -> {
                    try {
                        return Files.readSymbolicLink(Path.of("/proc", Long.toString(h.pid()), "cwd")).equals(tempDir);
                    } catch (java.io.IOException e) {
                        return false;
                    }
                })
                .map(ProcessHandle::pid)
                .collect(Collectors.toList());
    }

    @Test
    @Timeout(90)
    void withBrokerCpusEpmdTheStartScriptTheErlangVmAndItsHelpersAllRunOnThoseCpus() throws Exception {
        try (LocalRabbitMq node = LocalRabbitMq.start(
                RabbitBrokerSpec.of(BrokerSpec.defaults().withCpus(CpuList.parse("0"))), dir)) {
            Path tempDir;
            try (Stream<Path> made = Files.list(dir)) {
                tempDir = made.filter(p -> p.getFileName().toString().startsWith("msgbench-rabbitmq-")).findFirst()
                        .orElseThrow();
            }
            List<ProcessHandle> processes = new ArrayList<>();
            processes.add(ProcessHandle.of(node.pid(1)).orElseThrow());
            processes.addAll(ProcessHandle.of(node.pid(1)).orElseThrow().descendants().collect(Collectors.toList()));
            epmdsOn(tempDir).forEach(pid -> processes.add(ProcessHandle.of(pid).orElseThrow()));
            assertTrue(processes.stream().anyMatch(h -> h.info().command().orElse("").endsWith("beam.smp")),
                    "the Erlang VM is among them");
            assertEquals(1, epmdsOn(tempDir).size(), "and our epmd");
            for (ProcessHandle process : processes) {
                if (ProcStat.isRunning(process)) {
                    assertEquals("0", cpusAllowed(process.pid()), process.pid() + " " + process.info().command().orElse(""));
                }
            }
        }
    }

    /** Read straight from the kernel, not through the code under test. */
    private static String cpusAllowed(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:"))
                .map(line -> line.substring("Cpus_allowed_list:".length()).trim())
                .findFirst().orElseThrow();
    }
}
