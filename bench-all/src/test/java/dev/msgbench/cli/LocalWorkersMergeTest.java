package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.testing.NeedsBroker;
import dev.msgbench.nats.broker.LocalNatsServer;
import dev.msgbench.nats.broker.NatsServerSpec;

/**
 * The local proof of --workers: four worker processes, each started with the command line of the
 * Kubernetes Job and the environment it gives (JOB_COMPLETION_INDEX), against one nats-server,
 * all with one --start-at; then merge. The merged result must be the workers' exactly.
 */
@NeedsBroker
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LocalWorkersMergeTest {

    @TempDir
    Path dir;

    @Test
    void fourWorkersMergeIntoOneResultWhoseCountsAndHistogramAreExactlyTheirSums() throws Exception {
        LocalWorkers workers = new LocalWorkers(dir);
        try (LocalNatsServer server = LocalNatsServer.start(
                NatsServerSpec.of(BrokerSpec.defaults().withLogDir(dir.resolve("logs"))))) {
            workers.run(server.url(), Collections.nCopies(LocalWorkers.WORKERS, List.of()));
        }
        Path merged = workers.mergeAndCheck();

        CliRun report = CliRun.of("report", merged.toString());
        assertEquals(0, report.exitCode, report.toString());
        CliRun compare = CliRun.of("compare", workers.worker(0).toString(), merged.toString());
        assertTrue(compare.exitCode == 0 || compare.exitCode == 1, compare.toString());
        assertTrue(compare.out.contains("nats"), compare.toString());
    }
}
