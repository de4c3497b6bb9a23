package dev.msgbench.kafka.broker;
import java.nio.file.*;
class ScratchProbeTest {
    @org.junit.jupiter.api.Test
    void probe() throws Exception {
        Path out = Path.of("/tmp/scratch"); Files.createDirectories(out);
        for (int round = 0; round < 3; round++) {
            long t = System.nanoTime();
            System.out.println("begin " + java.time.LocalTime.now());
            LocalKafkaCluster c = LocalKafkaCluster.start(KafkaClusterSpec.defaults().withNodes(3).withLogDir(out.resolve("r" + round)));
            System.out.printf("3 ready %d ms at %s%n", (System.nanoTime() - t) / 1_000_000, java.time.LocalTime.now());
            c.close();
        }
        for (int round = 0; round < 3; round++) {
            long t = System.nanoTime();
            LocalKafkaCluster c = LocalKafkaCluster.start(KafkaClusterSpec.defaults());
            System.out.printf("1 ready %d ms%n", (System.nanoTime() - t) / 1_000_000);
            c.close();
        }
    }
}
