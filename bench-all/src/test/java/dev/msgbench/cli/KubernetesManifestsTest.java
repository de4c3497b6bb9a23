package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.yaml.snakeyaml.Yaml;

import dev.msgbench.cli.workers.WorkerLaunch;
import picocli.CommandLine;

/**
 * deploy/kubernetes runs the worker command line that LocalWorkersMergeTest runs on this machine
 * ({@link WorkerLaunch}), with a workload the runner accepts.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KubernetesManifestsTest {

    private static final Path DEPLOY = Path.of("..", "deploy", "kubernetes");

    @Test
    void theIndexedJobRunsEveryWorkerAtOnceWithTheLocalWorkersCommandLine() throws Exception {
        Map<String, Object> job = read("job.yaml");
        assertEquals("Job", job.get("kind"));
        Map<String, Object> spec = map(job, "spec");
        assertEquals("Indexed", spec.get("completionMode"));
        assertEquals(spec.get("completions"), spec.get("parallelism"), "all workers run at once");
        Map<String, Object> worker = containers(spec).get(0);
        assertEquals(WorkerLaunch.imageCommand(), worker.get("command"));
        assertEquals(WorkerLaunch.args(WorkerLaunch.IMAGE_ARGS_FILE, WorkerLaunch.IMAGE_RESULTS), worker.get("args"));
        assertEquals(List.of(Map.of("name", "workload", "mountPath", Path.of(WorkerLaunch.IMAGE_ARGS_FILE).getParent()
                .toString()), Map.of("name", "results", "mountPath", WorkerLaunch.IMAGE_RESULTS)), worker.get("volumeMounts"));
        String dockerfile = Files.readString(DEPLOY.resolve("Dockerfile"));
        assertEquals(1, dockerfile.lines().filter(l -> l.equals("COPY bench-all.jar " + WorkerLaunch.IMAGE_JAR)).count(),
                dockerfile);
    }

    @Test
    void theConfigMapsWorkloadIsOneTheRunnerAcceptsForAsManyWorkersAsTheJobRuns() throws Exception {
        Map<String, Object> configMap = read("configmap.yaml");
        String args = (String) map(configMap, "data").get(Path.of(WorkerLaunch.IMAGE_ARGS_FILE).getFileName().toString());
        List<String> lines = args.lines().toList();
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        CommandLine cl = Main.commandLine(new Io(sink, sink, false));
        CommandLine.ParseResult parsed = cl.parseArgs(lines.toArray(new String[0]));
        assertEquals("e2e", parsed.subcommand().commandSpec().name());
        Integer workers = parsed.subcommand().matchedOptionValue("--workers", null);
        assertEquals(map(read("job.yaml"), "spec").get("completions"), workers);
    }

    private static Map<String, Object> read(String file) throws Exception {
        try (Reader reader = Files.newBufferedReader(DEPLOY.resolve(file))) {
            return new Yaml().load(reader);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        return (Map<String, Object>) parent.get(key);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> containers(Map<String, Object> jobSpec) {
        return (List<Map<String, Object>>) map(map(jobSpec, "template"), "spec").get("containers");
    }
}
