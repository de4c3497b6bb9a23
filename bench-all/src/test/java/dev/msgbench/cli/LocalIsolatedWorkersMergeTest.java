package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.result.ResultFiles;
import dev.msgbench.core.testing.NeedsBroker;

/**
 * The local proof of --workers on separate hosts (root, as --isolate): `broker nats --isolate
 * --clients 4` puts nats-server on a host of its own and makes four client hosts; each worker runs
 * in one (ip netns exec NS, the prefix the command prints) with the Job's command line and
 * environment; then merge. The merged result must be the workers' exactly, each worker must have
 * run on its own address, and the hosts must be gone once the broker command is.
 */
@NeedsBroker
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class LocalIsolatedWorkersMergeTest {

    private static final Pattern NODE_URL = Pattern.compile("nats://(10\\.77\\.\\d+\\.)1:\\d+");
    private static final Pattern WORKER_LINE = Pattern.compile("worker (\\d+): (ip netns exec (\\S+))");

    @TempDir
    Path dir;

    @Test
    void fourWorkersOnClientHostsOfTheirOwnMergeExactlyAndEachRanOnItsOwnAddress() throws Exception {
        Path brokerLog = dir.resolve("broker.log");
        Process broker = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "broker", "nats", "--isolate", "--clients", String.valueOf(LocalWorkers.WORKERS))
                .redirectError(brokerLog.toFile()).start();
        List<String> namespaces = new ArrayList<>();
        String subnet;
        LocalWorkers workers = new LocalWorkers(dir);
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(broker.getInputStream(), StandardCharsets.UTF_8));
            String url = line(out, brokerLog);
            Matcher onNode = NODE_URL.matcher(url);
            assertTrue(onNode.matches(), "nats-server on node host 1, not loopback: " + url);
            subnet = onNode.group(1);
            List<List<String>> prefixes = new ArrayList<>();
            for (int index = 0; index < LocalWorkers.WORKERS; index++) {
                Matcher worker = WORKER_LINE.matcher(line(out, brokerLog));
                assertTrue(worker.matches(), worker.toString());
                assertEquals(index, Integer.parseInt(worker.group(1)));
                prefixes.add(Arrays.asList(worker.group(2).split(" ")));
                namespaces.add(worker.group(3));
            }
            workers.run(url, prefixes);
        } finally {
            broker.destroy(); // SIGTERM, as Ctrl+C: it stops nats-server, then removes the hosts
            assertTrue(broker.waitFor(120, TimeUnit.SECONDS), "the broker command ended");
        }
        String prefix = namespaces.get(0).substring(0, namespaces.get(0).length() - "c1".length());
        assertEquals(List.of(), namespacesStartingWith(prefix), "every host of the run is removed");

        workers.mergeAndCheck();
        for (int index = 0; index < LocalWorkers.WORKERS; index++) {
            Map<?, ?> where = (Map<?, ?>) ResultFiles.readResult(workers.worker(index)).environment().get("host");
            assertEquals(namespaces.get(index), where.get("namespace"), "worker " + index);
            assertEquals(List.of(subnet + (101 + index)), where.get("addresses"), "worker " + index);
        }
    }

    private static String line(BufferedReader out, Path log) throws IOException {
        String line = out.readLine();
        assertNotNull(line, () -> "the broker command ended early: " + read(log));
        return line;
    }

    private static List<String> namespacesStartingWith(String prefix) throws Exception {
        Process list = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        List<String> ours = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(list.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.startsWith(prefix)) {
                    ours.add(line);
                }
            }
        }
        assertEquals(0, list.waitFor());
        return ours;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }
}
