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
 * {@value #UNCONFIRMED} unconfirmed (-c), against ours with as many. Publisher: no consumer,
 * "sending rate avg". Subscriber: one consumer acknowledging each delivery with ours' default
 * prefetch, until it has every message (-D): "receiving rate avg". PerfTest has no warm-up, so
 * RabbitMQ runs cold on both sides.
 *
 * <p>Two pairings: against --system rabbitmq (a classic queue each side, ours with --acks 1 and
 * --consumer-ack manual), and against --system rabbitmq-streams ({@link #onStreamQueues}): PerfTest
 * has no stream-protocol client, so it speaks AMQP to a stream queue (-sq) on the same node, and
 * ours speaks the stream protocol. The row compares two protocols to the same kind of stream, and
 * says so.
 */
public final class PerfTestTool implements NativeTool {

    static final String VERSION = "2.22.1";
    static final int UNCONFIRMED = 1000;
    /** Nobody consumes in a publisher run, so the queue would keep its messages until the broker stops. */
    private static final String EXPIRES = "x-expires=300000";
    /**
     * A stream queue (-sq: durable, not auto-delete, x-queue-type=stream) takes no x-expires; each
     * run's stream stays, on disk, until compare-native stops the broker and removes its data.
     */
    private static final String STREAM_QUEUE = "-sq";

    private final boolean streamQueue;

    /** PerfTest against --system rabbitmq: a classic queue. */
    public PerfTestTool() {
        this(false);
    }

    private PerfTestTool(boolean streamQueue) {
        this.streamQueue = streamQueue;
    }

    /** PerfTest over AMQP to a stream queue, against --system rabbitmq-streams over the stream protocol. */
    public static PerfTestTool onStreamQueues() {
        return new PerfTestTool(true);
    }

    @Override
    public String name() {
        return streamQueue ? "PerfTest over AMQP to a stream queue" : "PerfTest";
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
        if (streamQueue) {
            return request.side() == NativeSide.PUBLISHER
                    ? "PerfTest over AMQP to a stream queue (-sq), sending rate, confirms (-c " + UNCONFIRMED + "), no "
                            + "consumer vs our publisher over the stream protocol, confirmed msg/s (--acks all, "
                            + "--max-unconfirmed " + UNCONFIRMED + "): two protocols, the same kind of stream on the "
                            + "same node"
                    : "PerfTest over AMQP from a stream queue (-sq), receiving rate, 1 producer (confirms) and 1 consumer "
                            + "(ack each, prefetch " + RabbitSettings.DEFAULT_PREFETCH + ") vs our consumer over the "
                            + "stream protocol, msg/s: two protocols, the same kind of stream on the same node";
        }
        return request.side() == NativeSide.PUBLISHER
                ? "PerfTest sending rate, confirms (-c " + UNCONFIRMED + "), no consumer vs our confirmed msg/s (--acks 1)"
                : "PerfTest receiving rate, 1 producer (confirms) and 1 consumer (ack each, prefetch "
                        + RabbitSettings.DEFAULT_PREFETCH + ") vs our consumer msg/s, the same";
    }

    @Override
    public List<String> matchingFlags(NativeRequest request) {
        // a stream confirms once its replicas have a publish: --acks all, and 1 on one node means the same
        List<String> flags = new ArrayList<>(List.of("--acks", streamQueue ? "all" : "1", "--max-unconfirmed",
                Integer.toString(UNCONFIRMED)));
        if (request.side() == NativeSide.PUBLISHER) {
            flags.addAll(List.of("--consumers", "0"));
        } else if (streamQueue) {
            // the stream protocol's consumer has credits, not a prefetch or acknowledgements
            flags.addAll(List.of("--consumers", "1"));
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

    NativeRun run(List<String> java, NativeRequest request) {
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
        argv.addAll(List.of("-u", request.runName()));
        if (streamQueue) {
            // the run's own new stream: its consumer reads it from the start, as ours does
            argv.add(STREAM_QUEUE);
            if (request.side() == NativeSide.SUBSCRIBER) {
                argv.addAll(List.of("--stream-consumer-offset", "first"));
            }
        } else {
            argv.addAll(List.of("--queue-args", EXPIRES));
        }
        Step perfTest = Step.measured("PerfTest", argv);
        return new NativeRun(List.of(perfTest), out -> (request.side() == NativeSide.PUBLISHER
                ? PerfTestOutput.sendingRate(out.of(perfTest))
                : PerfTestOutput.receivingRate(out.of(perfTest))).map(NativeFigure::of));
    }
}
