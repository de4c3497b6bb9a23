package dev.msgbench.pulsar;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import dev.msgbench.core.broker.JavaChild;
import dev.msgbench.core.security.ClientSecurity;

/**
 * Deletes one topic of public/default, with its subscriptions, through the admin REST API: the
 * cleanup step of a pulsar-perf run, in a JVM of its own on the suite's class path (the native
 * tool's steps are commands).
 */
public final class TopicDeletion {

    private TopicDeletion() {
    }

    /** The command that deletes {@code topic} on the plain broker whose admin URL is {@code adminUrl}. */
    public static List<String> command(String adminUrl, String topic) {
        String classPath = JavaChild.thisClassPath().stream().map(Path::toString)
                .collect(Collectors.joining(File.pathSeparator));
        return List.of(JavaChild.javaExecutable(), "-cp", classPath,
                TopicDeletion.class.getName(), adminUrl, topic);
    }

    /** {@code ADMIN_URL TOPIC}; a topic that is gone already is fine. */
    public static void main(String[] args) throws Exception {
        new PulsarAdmin(args[0], ClientSecurity.NONE).deleteTopic(args[1], false);
    }
}
