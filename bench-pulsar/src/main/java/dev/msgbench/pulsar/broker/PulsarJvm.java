package dev.msgbench.pulsar.broker;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.broker.BrokerClasspath;

/** What every JVM of a local Pulsar shares: the jars, the JVM options, the log config, the health check. */
final class PulsarJvm {

    /** pulsar-broker and everything it needs, with log4j for the node's log (bench-pulsar-broker's pom). */
    static final BrokerClasspath CLASS_PATH = BrokerClasspath.named("pulsar");
    static final String LOOPBACK = "127.0.0.1";
    private static final String LOG4J_RESOURCE = "pulsar-node-log4j2.xml";
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(10);

    /*
     * What bin/pulsar gives a JVM on Java 17 (its --add-opens, for netty, BookKeeper and the
     * broker's metrics).
     */
    private static final List<String> OPTIONS = List.of("-XX:+UseG1GC", "-XX:MaxGCPauseMillis=10",
            "-XX:+ParallelRefProcEnabled", "-XX:+DoEscapeAnalysis", "-Djava.awt.headless=true",
            "-Dio.netty.tryReflectionSetAccessible=true", "-Dio.netty.leakDetectionLevel=disabled",
            "-Dpulsar.allocator.exit_on_oom=true",
            "--add-opens", "java.base/java.io=ALL-UNNAMED", "--add-opens", "java.base/java.util.zip=ALL-UNNAMED",
            "--add-opens", "java.base/sun.net=ALL-UNNAMED", "--add-opens", "java.management/sun.management=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED");

    private PulsarJvm() {
    }

    /** -Xmx and -Xms {@code heap}, as much direct memory, logging through {@code log4jConfig}. */
    static List<String> options(String heap, Path log4jConfig) {
        List<String> jvm = new ArrayList<>(List.of("-Xmx" + heap, "-Xms" + heap, "-XX:MaxDirectMemorySize=" + heap,
                "-Dlog4j2.configurationFile=" + log4jConfig));
        jvm.addAll(OPTIONS);
        return jvm;
    }

    /** Writes the nodes' log4j2.xml (everything to stdout, which the launcher sends to the node's log) to {@code file}. */
    static void writeLog4jConfig(Path file) {
        try (InputStream config = PulsarJvm.class.getResourceAsStream(LOG4J_RESOURCE)) {
            if (config == null) {
                throw new IllegalStateException(LOG4J_RESOURCE + " is missing from the class path");
            }
            Files.createDirectories(file.getParent());
            Files.copy(config, file, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** GET /admin/v2/brokers/health: "ok" once a message went through the broker and its bookies and back. */
    /**
     * Whether namespace public/default, where a run's topics go, exists: the standalone creates it
     * only after its broker is up, so its health check can pass first (a run then met "Namespace
     * does not exist" on a busy machine).
     */
    static boolean defaultNamespaceExists(PulsarWebAccess web, String adminUrl) throws IOException, InterruptedException {
        HttpRequest request = web.request().uri(URI.create(adminUrl + "/admin/v2/namespaces/public"))
                .timeout(HEALTH_TIMEOUT).GET().build();
        HttpResponse<String> response = web.http().send(request, HttpResponse.BodyHandlers.ofString());
        return response.statusCode() == 200 && response.body().contains("\"public/default\"");
    }

    static boolean healthy(PulsarWebAccess web, String adminUrl) throws IOException, InterruptedException {
        HttpRequest request = web.request().uri(URI.create(adminUrl + "/admin/v2/brokers/health"))
                .timeout(HEALTH_TIMEOUT).GET().build();
        HttpResponse<String> response = web.http().send(request, HttpResponse.BodyHandlers.ofString());
        return response.statusCode() == 200 && "ok".equals(response.body().strip());
    }
}
