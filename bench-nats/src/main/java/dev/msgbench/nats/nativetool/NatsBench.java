package dev.msgbench.nats.nativetool;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

import dev.msgbench.core.UserError;
import dev.msgbench.core.nativetool.BuildCommand;
import dev.msgbench.core.nativetool.Executables;
import dev.msgbench.core.system.NativeFigure;
import dev.msgbench.core.system.NativeRequest;
import dev.msgbench.core.system.NativeRun;
import dev.msgbench.core.system.NativeRun.Step;
import dev.msgbench.core.system.NativeSide;
import dev.msgbench.core.system.NativeTool;

/**
 * nats-bench from nats.go's examples, built with Go: one publisher, and for the subscriber's
 * figure one subscriber (-np 1 -ns 1). Core NATS drops what no one reads, so the publisher runs
 * alone; both tools end with a flush round trip. Ours publishes with the nats-client knob (direct
 * by default: the suite writes the protocol itself, as the Go client does; jnats queues each
 * message for its writer thread), and subscribes with it too.
 *
 * <p>Both publish to a subject of the same shape and length as ours (msgbench-&lt;11 hex&gt;-&lt;3
 * hex&gt;.0, 26 characters, two tokens): the server's cost per message grows with the subject,
 * 10 % from 23 to 26 characters.
 */
public final class NatsBench implements NativeTool {

    static final String VERSION = "v1.11.0";
    static final String CLIENT = "nats-client";
    private static final String PROGRAM = "nats-bench";
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(15);
    private static final Duration GO_ENV_TIMEOUT = Duration.ofSeconds(30);

    @Override
    public String name() {
        return PROGRAM;
    }

    @Override
    public String origin() {
        return "github.com/nats-io/nats.go/examples/nats-bench@" + VERSION + ", built with go install";
    }

    @Override
    public List<Knob> knobs() {
        return List.of(new Knob(CLIENT, "direct", "ours' --nats-client: direct or jnats"));
    }

    @Override
    public long defaultMessages(long sizeBytes) {
        return 10_000_000;
    }

    /** A Go program has no JIT to warm up, so nats-bench has no warm-up to leave out; ours leaves its own out. */
    @Override
    public boolean warms(NativeSide side) {
        return true;
    }

    @Override
    public String compared(NativeRequest request) {
        String client = client(request);
        return request.side() == NativeSide.PUBLISHER
                ? "nats-bench pub-only msgs/sec vs our publisher msg/s (--consumers 0, --nats-client " + client + ")"
                : "nats-bench -np 1 -ns 1 Sub stats vs our consumer msg/s (1 producer, 1 consumer, --nats-client " + client + ")";
    }

    @Override
    public List<String> matchingFlags(NativeRequest request) {
        String client = client(request);
        return request.side() == NativeSide.PUBLISHER
                ? List.of("--consumers", "0", "--nats-client", client)
                : List.of("--producers", "1", "--consumers", "1", "--nats-client", client);
    }

    @Override
    public Prepared prepare(Path cacheDir, Consumer<String> progress) {
        Path program = installed().orElseGet(() -> build(cacheDir, progress));
        return request -> run(program, request, subject(System.currentTimeMillis()));
    }

    static NativeRun run(Path program, NativeRequest request, String subject) {
        String subscribers = request.side() == NativeSide.PUBLISHER ? "0" : "1";
        Step bench = Step.measured(PROGRAM, List.of(program.toString(), "-s", request.url(), "-np", "1", "-ns", subscribers,
                "-n", Long.toString(request.messages()), "-ms", Long.toString(request.sizeBytes()), subject));
        return new NativeRun(List.of(bench), out -> (request.side() == NativeSide.PUBLISHER
                ? NatsBenchOutput.publisherRate(out.of(bench))
                : NatsBenchOutput.subscriberRate(out.of(bench))).map(NativeFigure::of));
    }

    /** Of the shape and length of ours: msgbench-, the time in 11 hex digits, a 3-character id, .0 */
    static String subject(long epochMillis) {
        return String.format(Locale.ROOT, "msgbench-%011x-cmp.0", epochMillis);
    }

    private static String client(NativeRequest request) {
        return request.choiceKnob(CLIENT, List.of("direct", "jnats"));
    }

    /** Where go install put it, or on the PATH. */
    private static Optional<Path> installed() {
        Optional<Path> built = goBin().map(bin -> bin.resolve(PROGRAM)).filter(Files::isExecutable);
        return built.isPresent() ? built : Executables.onPath(PROGRAM);
    }

    private static Path build(Path cacheDir, Consumer<String> progress) {
        Path bin = goBin().orElseThrow(() -> new UserError(
                "Go is not installed, so there is no nats-bench (apt-get install golang-go, or put a nats-bench on the PATH)"));
        progress.accept("building nats-bench " + VERSION + " with Go");
        Path log = cacheDir.resolve("nats-bench.log");
        // outside any Go module, so that go install builds the tool at its own version
        int status = BuildCommand.run(List.of("go", "install", "github.com/nats-io/nats.go/examples/nats-bench@" + VERSION),
                Path.of(System.getProperty("java.io.tmpdir")), log, BUILD_TIMEOUT);
        Path program = bin.resolve(PROGRAM);
        if (status != 0 || !Files.isExecutable(program)) {
            throw new UserError("could not build nats-bench; see " + log);
        }
        return program;
    }

    private static Optional<Path> goBin() {
        if (Executables.onPath("go").isEmpty()) {
            return Optional.empty();
        }
        String gopath = BuildCommand.output(List.of("go", "env", "GOPATH"), GO_ENV_TIMEOUT);
        return gopath.isEmpty() ? Optional.empty() : Optional.of(Path.of(gopath.split(java.io.File.pathSeparator)[0], "bin"));
    }
}
