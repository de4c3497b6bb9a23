package dev.msgbench.redis.nativetool;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.msgbench.core.UserError;
import dev.msgbench.core.nativetool.Executables;
import dev.msgbench.core.system.NativeFigure;
import dev.msgbench.core.system.NativeRequest;
import dev.msgbench.core.system.NativeRun;
import dev.msgbench.core.system.NativeRun.Role;
import dev.msgbench.core.system.NativeRun.Step;
import dev.msgbench.core.system.NativeSide;
import dev.msgbench.core.system.NativeTool;

/**
 * redis-benchmark (Debian's redis-tools) on one connection with -P pipelining, against ours with
 * as many commands awaiting replies and the redis-client knob (direct by default: the suite writes
 * RESP itself and matches the replies in order, as redis-benchmark does; lettuce builds a command
 * and a future per command).
 *
 * <p>Pub/sub ({@link #pubSub}): PUBLISH requests/s. The same subscriber listens to both tools'
 * channels, redis-cli PSUBSCRIBE on a pattern of the same shape (lettuce, our other subscriber
 * client, cannot keep up with the direct writer), so that the publisher column compares publishers
 * with the same subscriber. redis-benchmark has no subscriber, but Redis writes each PUBLISH to its
 * subscribers within the command, so the PUBLISH rate with redis-cli subscribed is the rate
 * redis-cli is delivered at: the subscriber's native figure is the same run's, measured in runs of
 * its own; ours runs with our subscriber in place of redis-cli, so that Redis writes each message
 * once, as in the native runs.
 *
 * <p>Streams ({@link #streams}): XADD key MAXLEN ~ 100000 * m PAYLOAD, whose one-byte field name is
 * our adapter's, so that the entry carries the same bytes. No subscriber figure: redis-benchmark has
 * no Streams reader.
 */
public final class RedisBenchmark implements NativeTool {

    static final String PIPELINE = "redis-pipeline";
    static final String CLIENT = "redis-client";
    private static final String PROGRAM = "redis-benchmark";
    private static final String CLI = "redis-cli";
    private static final String MISSING = " is missing (apt-get install redis-tools)";

    private final boolean streams;

    private RedisBenchmark(boolean streams) {
        this.streams = streams;
    }

    /** PUBLISH, for the redis system. */
    public static RedisBenchmark pubSub() {
        return new RedisBenchmark(false);
    }

    /** XADD, for the redis-streams system. */
    public static RedisBenchmark streams() {
        return new RedisBenchmark(true);
    }

    @Override
    public String name() {
        return PROGRAM;
    }

    @Override
    public String origin() {
        return "Debian's redis-tools (redis-benchmark" + (streams ? "" : ", and redis-cli to subscribe") + "), on the PATH";
    }

    @Override
    public List<Knob> knobs() {
        return List.of(new Knob(PIPELINE, "16", "redis-benchmark's -P, and ours' --max-outstanding"),
                new Knob(CLIENT, "direct", "ours' --redis-client: direct or lettuce"));
    }

    @Override
    public long defaultMessages(long sizeBytes) {
        return 2_000_000;
    }

    /** A C program has no JIT to warm up, so redis-benchmark has no warm-up to leave out; ours leaves its own out. */
    @Override
    public boolean warms(NativeSide side) {
        return sideRefused(side) == null;
    }

    @Override
    public String sideRefused(NativeSide side) {
        return streams && side == NativeSide.SUBSCRIBER
                ? "redis-benchmark has no Streams reader (XREADGROUP) to compare our consumer with" : null;
    }

    @Override
    public String compared(NativeRequest request) {
        int pipeline = request.positiveKnob(PIPELINE);
        String client = client(request);
        if (streams) {
            return "redis-benchmark XADD rps, -P " + pipeline + " vs our publisher msg/s (--consumers 0, --redis-client "
                    + client + ")";
        }
        return request.side() == NativeSide.PUBLISHER
                ? "redis-benchmark PUBLISH rps, -P " + pipeline + " vs our publisher msg/s, --redis-client " + client
                        + "; redis-cli subscribed for both"
                : "redis-benchmark PUBLISH rps with redis-cli subscribed (delivered within PUBLISH) vs our consumer msg/s "
                        + "(--consumers 1, --redis-client " + client + ")";
    }

    @Override
    public List<String> matchingFlags(NativeRequest request) {
        // our own subscriber on the subscriber side, in place of redis-cli: with both, Redis would
        // write every message twice
        return List.of("--consumers", request.side() == NativeSide.PUBLISHER ? "0" : "1", "--redis-client", client(request),
                "--max-outstanding", Integer.toString(request.positiveKnob(PIPELINE)));
    }

    /** Our channels are named per run, msgbench-&lt;run&gt;:&lt;stream&gt;: one pattern covers them. */
    @Override
    public List<String> oursListener(NativeRequest request) {
        return streams || request.side() == NativeSide.SUBSCRIBER ? List.of()
                : subscriber(Path.of(CLI), request.url(), "msgbench-*");
    }

    @Override
    public Prepared prepare(Path cacheDir, Consumer<String> progress) {
        Path benchmark = Executables.onPath(PROGRAM).orElseThrow(() -> new UserError(PROGRAM + MISSING));
        // Streams runs have no subscriber
        Path cli = streams ? Path.of(CLI) : Executables.onPath(CLI).orElseThrow(() -> new UserError(CLI + MISSING));
        return new Prepared() {
            @Override
            public NativeRun run(NativeRequest request) {
                return RedisBenchmark.this.run(benchmark, cli, request);
            }

            @Override
            public List<Step> brokerSetup(String url) {
                return streams ? List.of() : List.of(liftOutputLimit(cli, url));
            }
        };
    }

    NativeRun run(Path benchmark, Path cli, NativeRequest request) {
        URI broker = URI.create(request.url());
        List<String> argv = new ArrayList<>(List.of(benchmark.toString(), "-h", broker.getHost(),
                "-p", Integer.toString(broker.getPort()), "-c", "1", "-n", Long.toString(request.messages()),
                "-P", Integer.toString(request.positiveKnob(PIPELINE)), "--csv"));
        String payload = "x".repeat(Math.toIntExact(request.sizeBytes()));
        if (streams) {
            argv.addAll(List.of("XADD", request.runName(), "MAXLEN", "~", "100000", "*", "m", payload));
        } else {
            argv.addAll(List.of("PUBLISH", request.runName(), payload));
        }
        Step bench = Step.measured(PROGRAM, argv);
        List<Step> steps = new ArrayList<>();
        if (!streams) {
            // the same run for both sides: Redis writes each PUBLISH to its subscribers within the
            // command, so the PUBLISH rate with redis-cli subscribed is also the rate it delivers at
            // redis-cli's first line once subscribed; an error ("Could not connect ...") comes instead
            steps.add(Step.listener("redis-cli subscriber", subscriber(cli, request.url(), "cmp-*"), "psubscribe"));
        }
        steps.add(bench);
        return new NativeRun(steps, out -> RedisBenchmarkOutput.requestsPerSec(out.of(bench)).map(NativeFigure::of));
    }

    private static List<String> subscriber(Path cli, String url, String pattern) {
        URI broker = URI.create(url);
        return List.of(cli.toString(), "-h", broker.getHost(), "-p", Integer.toString(broker.getPort()), "PSUBSCRIBE", pattern);
    }

    /**
     * redis-cli prints every message it gets; at a publisher's full rate it falls behind, and Redis
     * would disconnect it at its pubsub output limit, after which PUBLISH costs the server less:
     * without a limit both tools' messages all reach it.
     */
    private static Step liftOutputLimit(Path cli, String url) {
        URI broker = URI.create(url);
        return new Step("lifting the pubsub output limit", Role.SETUP, List.of(cli.toString(), "-h", broker.getHost(),
                "-p", Integer.toString(broker.getPort()), "CONFIG", "SET", "client-output-buffer-limit", "pubsub 0 0 0"), "");
    }

    private static String client(NativeRequest request) {
        return request.choiceKnob(CLIENT, List.of("direct", "lettuce"));
    }
}
