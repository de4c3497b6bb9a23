package dev.msgbench.rabbit.broker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * rabbitmqctl against one of the local nodes, answering in JSON: the only way to see what AMQP
 * does not show (the running cluster members, a queue's leader and replicas). The tool is an
 * Erlang node of its own that reaches the broker's nodes through our epmd with our cookie; a call
 * takes about 0.4 s.
 *
 * <p>Under --isolate the tool runs inside the asked node's network namespace, where that node's
 * epmd listens: from any other, finding no epmd on its own loopback, it would daemonise one there
 * that outlives the run.
 */
final class RabbitCtl {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path script;
    private final Map<String, String> env;
    private final Path workDir;
    private final Path logFile;

    /**
     * @param env     what the tool needs to reach the nodes: HOME (the cookie), ERL_EPMD_PORT, an
     *                empty RABBITMQ_CONF_ENV_FILE (else /etc/rabbitmq/rabbitmq-env.conf is read) and,
     *                for nodes named by address, RABBITMQ_USE_LONGNAME
     * @param workDir where the answer is written before it is read, inside the broker's temp dir
     * @param logFile where the tool's error output goes, named in failures
     */
    RabbitCtl(Path script, Map<String, String> env, Path workDir, Path logFile) {
        this.script = script;
        this.env = Map.copyOf(env);
        this.workDir = workDir;
        this.logFile = logFile;
    }

    /**
     * Runs {@code rabbitmqctl -n NODE ARGS --formatter json} and returns its answer.
     *
     * @param netns the node's network namespace (--isolate), or null for this JVM's
     * @throws IOException when the tool fails (its exit status, the log named), is not done
     *                     within {@code timeout} or answers no JSON
     */
    JsonNode json(String netns, String nodeName, Duration timeout, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(inNamespace(netns));
        command.addAll(List.of(script.toString(), "-n", nodeName, "-q"));
        command.addAll(List.of(args));
        command.addAll(List.of("--formatter", "json"));
        Path answer = Files.createTempFile(workDir, "rabbitmqctl-", ".json");
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectOutput(answer.toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
            builder.environment().putAll(env);
            if (netns != null) {
                // the tool names itself rabbitmqcli-ID-<this>: so its host part is the node's address, where
                // the other nodes reach it to stream their part of an answer (list_queues); else the
                // machine's host name, which resolves to their own loopback
                builder.environment().put("RABBITMQ_NODENAME", nodeName);
            }
            Process process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IOException(describe(nodeName, args) + " did not answer within " + timeout.toMillis()
                        + " ms; see " + logFile);
            }
            if (process.exitValue() != 0) {
                throw new IOException(describe(nodeName, args) + " exited with status " + process.exitValue()
                        + "; see " + logFile);
            }
            String text = Files.readString(answer, StandardCharsets.UTF_8);
            JsonNode tree = JSON.readTree(text);
            if (tree == null || tree.isMissingNode()) {
                throw new IOException(describe(nodeName, args) + " answered no JSON: '" + text.strip() + "'");
            }
            return tree;
        } finally {
            Files.deleteIfExists(answer);
        }
    }

    /** The prefix that runs a program in {@code netns} ({@code ip netns exec} execs it); none for null. */
    static List<String> inNamespace(String netns) {
        return netns == null ? List.of() : List.of("ip", "netns", "exec", netns);
    }

    private static String describe(String nodeName, String... args) {
        return "rabbitmqctl -n " + nodeName + " " + String.join(" ", args);
    }
}
