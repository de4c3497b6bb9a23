package dev.msgbench.pulsar.nativetool;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.pulsar.PulsarVersion;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;
import dev.msgbench.core.nativetool.MavenClasspath;
import dev.msgbench.core.system.NativeFigure;
import dev.msgbench.core.system.NativeRequest;
import dev.msgbench.core.system.NativeRun;
import dev.msgbench.core.system.NativeRun.Role;
import dev.msgbench.core.system.NativeRun.Step;
import dev.msgbench.core.system.NativeSide;
import dev.msgbench.core.system.NativeTool;
import dev.msgbench.pulsar.TopicDeletion;

/**
 * Pulsar's own pulsar-perf, produce and consume (org.apache.pulsar:pulsar-testclient), on the
 * broker's service URL, each run on a topic of its own in public/default, which the broker creates
 * on first use, and which the run deletes at its end when the suite started the broker
 * ({@link PerfUrl}: the launcher's native tool URL carries the admin URL).
 *
 * <p>The tool's jar is 4.0.8: Maven Central has no pulsar-testclient 4.0.7, the suite's client and
 * broker, and 4.0.8 is the next patch release of the same line. Its class path is otherwise the
 * suite's version: every Pulsar jar it needs is 4.0.7 (pulsar-testclient.pom.xml), so the tool runs
 * the same client as ours; and 4.0.8's own broker jars are not all on Maven Central, where its main
 * class loads the broker's commands of pulsar-perf too.
 *
 * <p>Publisher: produce at no rate limit (-r at its highest), the client's batching defaults as
 * ours has them (a batch after 1 ms, of 1000 messages or 128 KiB: the tool's own -bb is 4 MiB), no
 * consumer; its messages acknowledged per second, counted from its producer's creation to its
 * DONE line (its final line's rate is over a time padded to its next 10 s tick:
 * {@link PerformanceProducerOutput}); vs our publisher msg/s, --consumers 0. Subscriber: produce
 * fills the topic as above, then consume reads it from the earliest message in a subscription of
 * its own, acknowledging each: its final rate, from its subscription to its last message; vs our
 * consumer msg/s with --consume-after-produce (from its first message). Without a subscription
 * the broker keeps a topic's messages until its ledger rolls over (10 minutes at the least) and
 * the topic until it has been unused for 60 s; consume subscribes seconds after produce ends.
 * A run on the suite's broker deletes its topic at its end ({@link PerfUrl}); on a broker given with
 * a plain service URL a subscriber run's topic stays, with its subscription, until deleted.
 *
 * <p>A warm-up is left out on both sides: the tool sends (or reads) it first and is read from its
 * first 10 s progress line past it to its DONE line, so that line may come up to 10 s after the
 * warm-up ends; a window of less than half the measured messages gives no figure.
 */
public final class PulsarPerf implements NativeTool {

    /** Maven Central's pulsar-testclient nearest the suite's 4.0.7. */
    static final String TESTCLIENT_VERSION = "4.0.8";
    /** The client's default batchingMaxBytes, which our producer keeps. */
    static final int BATCH_MAX_BYTES = 128 * 1024;
    /** -r: pulsar-perf refuses 0 (no limit), and limits with a RateLimiter of this many permits per second. */
    static final String NO_RATE_LIMIT = Integer.toString(Integer.MAX_VALUE);
    /** Ours' longest wait for the stored messages: far more than any default count takes to read. */
    static final String DRAIN_TIMEOUT = "10m";
    private static final String MAIN = "org.apache.pulsar.testclient.PulsarPerfTestTool";
    private static final String LOG_CONFIG = "pulsar-perf-log4j2.xml";
    /** The tool's first argument is a client configuration file; the suite gives every setting on its command line. */
    private static final String CLIENT_CONF = "pulsar-perf-client.conf";

    @Override
    public String name() {
        return "pulsar-perf produce and consume";
    }

    @Override
    public String origin() {
        return "org.apache.pulsar:pulsar-testclient " + TESTCLIENT_VERSION + " from Maven Central, on the Pulsar "
                + PulsarVersion.getVersion() + " client";
    }

    /**
     * 25 to 100 s of publishing on 2 cores (200,000 to 600,000 msg/s at 100 B, 100,000 to 200,000 at
     * 1 KiB), and reading: the tool prints a progress line every 10 s, so the first one past the
     * warm-up comes up to 10 s after it, and the window from there must hold half the measured
     * messages: N messages allow 0.05 N msg/s, 1,000,000 msg/s at 100 B and 300,000 at 1 KiB. On the
     * quiet 2-core M2 pulsar-perf consume read 826,000 to 861,000 msg/s of 100 B and 245,000 of 1 KiB
     * (2026-11-30): 8,000,000 and 3,000,000 left some runs no window.
     */
    @Override
    public long defaultMessages(long sizeBytes) {
        return sizeBytes < 512 ? 20_000_000 : 6_000_000;
    }

    @Override
    public boolean warms(NativeSide side) {
        return true;
    }

    @Override
    public String compared(NativeRequest request) {
        return request.side() == NativeSide.PUBLISHER
                ? "pulsar-perf produce msg/s acknowledged (from its producer's creation to its DONE line), batching "
                        + "1 ms / 1000 messages / 128 KiB, vs our publisher msg/s (client defaults, the same)"
                : "pulsar-perf consume msg/s (its final line: from its subscription, Earliest, to its last message, "
                        + "each acknowledged) vs our consumer msg/s with --consume-after-produce (from its first message)";
    }

    @Override
    public String warmupNote(NativeRequest request) {
        return ", pulsar-perf " + (request.side() == NativeSide.PUBLISHER ? "produce" : "consume")
                + ": from its first 10 s progress line past the first " + request.warmupMessages()
                + " messages to its DONE line, none when fewer than half the measured messages came after that line";
    }

    @Override
    public List<String> matchingFlags(NativeRequest request) {
        return request.side() == NativeSide.PUBLISHER
                ? List.of("--consumers", "0")
                // reads what was stored, from the earliest message, as consume -sp Earliest does; the
                // reading is bounded by the drain timeout, whose 10 s cut 2,000,000 x 1 KiB at 1,447,524
                // on the busy 2 cores (145,000 msg/s), where the tool waits for every message
                : List.of("--consume-after-produce", "--consumers", "1", "--drain-timeout", DRAIN_TIMEOUT);
    }

    @Override
    public Prepared prepare(Path cacheDir, Consumer<String> progress) {
        String version = PulsarVersion.getVersion();
        String classpath = MavenClasspath.resolve(PulsarPerf.class, "pulsar-testclient.pom.xml",
                "pulsar-testclient-" + TESTCLIENT_VERSION + "-on-" + version,
                Map.of("pulsar.version", version, "pulsar.testclient.version", TESTCLIENT_VERSION), cacheDir, progress);
        Path logConfig = cacheDir.resolve(LOG_CONFIG);
        Path clientConf = cacheDir.resolve(CLIENT_CONF);
        try (InputStream in = PulsarPerf.class.getResourceAsStream(LOG_CONFIG)) {
            if (in == null) {
                throw new IllegalStateException(LOG_CONFIG + " is missing from the suite's jar");
            }
            Files.copy(in, logConfig, StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(clientConf, "# empty: pulsar-perf is given every setting on its command line\n");
        } catch (IOException e) {
            throw new UserError(Phrase.of("%s %s: cannot keep pulsar-perf's configuration there: %s", Setting.CACHE, cacheDir,
                    e.getMessage()));
        }
        List<String> java = new ArrayList<>(MavenClasspath.java(classpath));
        java.add(1, "-Dlog4j2.configurationFile=" + logConfig);
        List<String> tool = new ArrayList<>(java);
        tool.addAll(List.of(MAIN, clientConf.toString()));
        return request -> run(tool, request);
    }

    /**
     * The run's commands; {@code tool} runs pulsar-perf, its command comes next. With the admin URL
     * of a broker the suite started ({@link PerfUrl}) the run ends by deleting its topic.
     */
    static NativeRun run(List<String> tool, NativeRequest request) {
        PerfUrl url = PerfUrl.parse(request.url());
        String topic = "persistent://public/default/" + request.runName();
        long warmup = request.warmupMessages();
        long messages = request.messages() + warmup;
        Step producer = Step.measured("pulsar-perf produce", command(tool, "produce", "-u", url.serviceUrl(),
                "-r", NO_RATE_LIMIT, "-m", Long.toString(messages), "-s", Long.toString(request.sizeBytes()),
                "-bb", Integer.toString(BATCH_MAX_BYTES), topic));
        List<Step> cleanup = url.adminUrl().map(admin -> List.of(new Step("deleting topic " + request.runName(),
                Role.CLEANUP, TopicDeletion.command(admin, request.runName()), ".topic"))).orElse(List.of());
        if (request.side() == NativeSide.PUBLISHER) {
            return new NativeRun(concat(List.of(producer), cleanup), out -> warmup > 0
                    ? PerformanceProducerOutput.steadyFigure(out.of(producer), warmup)
                    : PerformanceProducerOutput.coldRate(out.of(producer)).map(NativeFigure::of));
        }
        Step consumer = new Step("pulsar-perf consume", Role.MEASURED, command(tool, "consume", "-u", url.serviceUrl(),
                "-sp", "Earliest", "-ss", request.runName(), "-m", Long.toString(messages), topic), ".consumer");
        return new NativeRun(concat(List.of(producer, consumer), cleanup), out -> (warmup > 0
                ? PerformanceConsumerOutput.steadyRate(out.of(consumer), warmup)
                : PerformanceConsumerOutput.coldRate(out.of(consumer))).map(NativeFigure::of));
    }

    private static List<Step> concat(List<Step> steps, List<Step> more) {
        List<Step> all = new ArrayList<>(steps);
        all.addAll(more);
        return all;
    }

    private static List<String> command(List<String> tool, String command, String... args) {
        List<String> argv = new ArrayList<>(tool);
        argv.add(command);
        argv.addAll(List.of(args));
        return argv;
    }
}
