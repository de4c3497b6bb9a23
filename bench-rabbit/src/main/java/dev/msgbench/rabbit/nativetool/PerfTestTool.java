package dev.msgbench.rabbit.nativetool;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.msgbench.core.nativetool.MavenClasspath;
import dev.msgbench.core.system.NativeFigure;
import dev.msgbench.core.system.NativeRequest;
import dev.msgbench.core.system.NativeRun;
import dev.msgbench.core.system.NativeRun.Step;
import dev.msgbench.core.system.NativeSide;
import dev.msgbench.core.system.NativeTool;
import dev.msgbench.rabbit.RabbitSettings;

/**
 * RabbitMQ's PerfTest (com.rabbitmq:perf-test), one producer with publisher confirms, at most
 * {@value #UNCONFIRMED} unconfirmed (-c), against ours with --acks 1 and as many. Publisher: no
 * consumer, "sending rate avg". Subscriber: one consumer acknowledging each delivery (our
 * --consumer-ack manual) with ours' default prefetch, until it has every message (-D): "receiving
 * rate avg". PerfTest has no warm-up, so RabbitMQ runs cold on both sides.
 */
public final class PerfTestTool implements NativeTool {

    static final String VERSION = "2.22.1";
    static final int UNCONFIRMED = 1000;
    /** Nobody consumes in a publisher run, so the queue would keep its messages until the broker stops. */
    private static final String EXPIRES = "x-expires=300000";

    @Override
    public String name() {
        return "PerfTest";
    }

    @Override
    public String origin() {
        return "com.rabbitmq:perf-test " + VERSION + " from Maven Central";
    }

    @Override
    public long defaultMessages(long sizeBytes) {
        return 200_000;
    }

    @Override
    public String compared(NativeRequest request) {
        return request.side() == NativeSide.PUBLISHER
                ? "PerfTest sending rate, confirms (-c " + UNCONFIRMED + "), no consumer vs our confirmed msg/s (--acks 1)"
                : "PerfTest receiving rate, 1 producer (confirms) and 1 consumer (ack each, prefetch "
                        + RabbitSettings.DEFAULT_PREFETCH + ") vs our consumer msg/s, the same";
    }

    @Override
    public List<String> matchingFlags(NativeRequest request) {
        List<String> flags = new ArrayList<>(List.of("--acks", "1", "--max-unconfirmed", Integer.toString(UNCONFIRMED)));
        if (request.side() == NativeSide.PUBLISHER) {
            flags.addAll(List.of("--consumers", "0"));
        } else {
            flags.addAll(List.of("--consumers", "1", "--consumer-ack", "manual",
                    "--prefetch", Integer.toString(RabbitSettings.DEFAULT_PREFETCH)));
        }
        return flags;
    }

    @Override
    public Prepared prepare(Path cacheDir, Consumer<String> progress) {
        String classpath = MavenClasspath.resolve(PerfTestTool.class, "perf-test.pom.xml", "perf-test-" + VERSION,
                Map.of("perf-test.version", VERSION), cacheDir, progress);
        return request -> run(MavenClasspath.java(classpath), request);
    }

    static NativeRun run(List<String> java, NativeRequest request) {
        String count = Long.toString(request.messages());
        List<String> argv = new ArrayList<>(java);
        argv.addAll(List.of("com.rabbitmq.perf.PerfTest", "-h", request.url(), "-x", "1"));
        if (request.side() == NativeSide.PUBLISHER) {
            argv.addAll(List.of("-y", "0", "-s", Long.toString(request.sizeBytes()), "-C", count));
        } else {
            // ends when the consumer has them all (-D); each delivery acknowledged on its own (-A 0, the
            // default), at most the prefetch unacknowledged (-q), as our consumer does
            argv.addAll(List.of("-y", "1", "-s", Long.toString(request.sizeBytes()), "-C", count, "-D", count));
        }
        argv.addAll(List.of("-c", Integer.toString(UNCONFIRMED)));
        if (request.side() == NativeSide.SUBSCRIBER) {
            argv.addAll(List.of("-q", Integer.toString(RabbitSettings.DEFAULT_PREFETCH)));
        }
        argv.addAll(List.of("-u", request.runName(), "--queue-args", EXPIRES));
        Step perfTest = Step.measured("PerfTest", argv);
        return new NativeRun(List.of(perfTest), out -> (request.side() == NativeSide.PUBLISHER
                ? PerfTestOutput.sendingRate(out.of(perfTest))
                : PerfTestOutput.receivingRate(out.of(perfTest))).map(NativeFigure::of));
    }
}
