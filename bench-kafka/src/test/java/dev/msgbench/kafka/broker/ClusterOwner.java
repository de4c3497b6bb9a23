package dev.msgbench.kafka.broker;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Run in a child JVM by a test: starts a one-node cluster, reports it, and waits to be killed. */
final class ClusterOwner {

    private ClusterOwner() {
    }

    /** Writes "NODE_PID TEMP_DIR" to {@code args[0]} once the cluster is ready. */
    public static void main(String[] args) throws Exception {
        Path report = Path.of(args[0]);
        LocalKafkaCluster cluster = LocalKafkaCluster.start(KafkaClusterSpec.defaults());
        Path partial = report.resolveSibling(report.getFileName() + ".partial");
        Files.writeString(partial, cluster.pid(1) + " " + cluster.logDir().getParent());
        Files.move(partial, report);
        Thread.sleep(Duration.ofMinutes(10).toMillis());
    }
}
