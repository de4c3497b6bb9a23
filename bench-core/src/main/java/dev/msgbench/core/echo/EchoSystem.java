package dev.msgbench.core.echo;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.SettingNames;
import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.DeliveryPromise;
import dev.msgbench.core.driver.ForwardingPublisher;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.payload.RecordKeys;
import dev.msgbench.core.units.Durations;

/**
 * Any system measured as a round trip on one clock: producers publish on the outbound
 * destination, a responder ({@link EchoResponder}) publishes every message back unchanged on the
 * return destination, and the engine's consumers read the return destination. The engine runs it
 * as any other system, so latency is receive time minus the original intended send time, both on
 * this JVM's clock, and loss, duplicates and order are counted per stream on the way back.
 *
 * <p>Built from two instances of the same system's adapter, one per destination. The responder
 * runs in this JVM, or in another process ({@code bench-all.jar responder}), possibly on another
 * host, which then must be given the run id this side uses.
 */
public final class EchoSystem implements MessagingSystem {

    private final MessagingSystem outbound;
    private final MessagingSystem back;
    /** Null for a responder in this JVM, which then uses the engine's run id. */
    private final String externalRunId;
    private final Duration readyTimeout;
    /** With a responder elsewhere: how long after the first send an echo must have come back. */
    private final Duration firstEchoTimeout;
    /** With a responder elsewhere: the command that starts it, for the line that says none answers. */
    private final String responderCommand;
    /** How the lines about a responder elsewhere name the settings they mention. */
    private final SettingNames names;
    private final FirstFailure responderErrors = new FirstFailure();
    private final AtomicBoolean firstSent = new AtomicBoolean();
    private volatile boolean echoSeen;
    /** Counted down by the first echo or by close: either ends the wait for the first echo. */
    private final CountDownLatch firstEchoOrClosed = new CountDownLatch(1);
    private RunPlan plan;
    private String runId;
    private volatile MessageSink engineSink;
    private EchoResponder responder;

    private EchoSystem(MessagingSystem outbound, MessagingSystem back, String externalRunId, Duration readyTimeout,
                       Duration firstEchoTimeout, String responderCommand, SettingNames names) {
        this.outbound = outbound;
        this.back = back;
        this.externalRunId = externalRunId;
        this.readyTimeout = readyTimeout;
        this.firstEchoTimeout = firstEchoTimeout;
        this.responderCommand = responderCommand;
        this.names = names;
    }

    /** The responder runs in this JVM, started once the engine's consumers are subscribed. */
    public static EchoSystem withResponder(MessagingSystem outbound, MessagingSystem back, Duration readyTimeout) {
        return new EchoSystem(outbound, back, null, readyTimeout, null, null, SettingNames.KEYS);
    }

    /**
     * The responder runs elsewhere ({@code responder --run-id runId}): this side only publishes on
     * the outbound destination and reads the return one, both named from {@code runId}. Nothing
     * tells this side whether that responder runs, so when no echo has come back
     * {@code firstEchoTimeout} after the first send, the run fails with a line naming the run id
     * and {@code responderCommand}, the command that starts the responder; that line, the loss hint
     * and the settings in result.json name settings by {@code names}.
     */
    public static EchoSystem withExternalResponder(MessagingSystem outbound, MessagingSystem back, String runId,
                                                   Duration firstEchoTimeout, String responderCommand,
                                                   SettingNames names) {
        return new EchoSystem(outbound, back, runId, Duration.ZERO, firstEchoTimeout, responderCommand, names);
    }

    @Override
    public void prepare(RunPlan runPlan) throws Exception {
        if (runPlan.consumers() < 1) {
            throw new UserError(consumersRefused(runPlan.consumers()));
        }
        Phrase refused = destinationsRefused(runPlan.topics(), runPlan.subscriptionsPerTopic());
        if (refused != null) {
            throw new UserError(refused);
        }
        this.plan = runPlan;
        this.runId = externalRunId != null ? externalRunId : runPlan.runId();
        // a responder elsewhere reads the outbound destination: this side only publishes there
        outbound.prepare(EchoRoute.outbound(runId, runPlan, externalRunId != null ? 0 : runPlan.consumers()));
        back.prepare(EchoRoute.back(runId, runPlan, runPlan.consumers()));
    }

    @Override
    public Subscriber subscribe(int index, MessageSink sink) throws Exception {
        engineSink = sink;
        return back.subscribe(index, externalRunId == null ? sink : new FirstEchoSink(sink));
    }

    /** Keys are refused: this reason becomes the run's one-line error. */
    @Override
    public String useKeys(RecordKeys keys) {
        return KEYS_REFUSED;
    }

    /** Why a round trip cannot carry record keys; the command line says it before a broker starts. */
    public static final String KEYS_REFUSED =
            "the responder publishes each message back as it came, without its key; measure keys one way";

    /** The echo pattern, as a setting and its value: what the refusals below name. */
    public static final Phrase ECHO_PATTERN = Phrase.of("%s echo", Setting.PATTERN);

    /** Why a round trip cannot run without consumers; the command line says it before a broker starts. */
    public static Phrase consumersRefused(int consumers) {
        return Phrase.of("%s needs at least one consumer to receive the echoes, got %s %d", ECHO_PATTERN,
                Setting.CONSUMERS, consumers);
    }

    /**
     * Why a round trip cannot spread over these destinations, or null when it can (one topic with one
     * subscription); the command line says it before a broker starts.
     */
    public static Phrase destinationsRefused(int topics, int subscriptionsPerTopic) {
        return topics * subscriptionsPerTopic <= 1 ? null : Phrase.of("%s measures one topic with one subscription: %s "
                + "and %s must be 1 with it (got %d and %d)", ECHO_PATTERN, Setting.TOPICS,
                Setting.SUBSCRIPTIONS_PER_TOPIC, topics, subscriptionsPerTopic);
    }

    /**
     * The in-process responder starts with the first publisher: the engine's consumers are on the
     * return destination by then, which a system that checks its path end to end before the first
     * message (core NATS's probes) needs for the responder's return publishers.
     */
    @Override
    public synchronized Publisher publisher(int streamId, AckListener acks) throws Exception {
        if (externalRunId == null && responder == null) {
            responder = EchoResponder.start(outbound, back, plan.producers(), plan.consumers(), readyTimeout,
                    this::responderFailed);
        }
        Publisher publisher = outbound.publisher(streamId, acks);
        return externalRunId == null ? publisher : new FirstSendPublisher(publisher);
    }

    /** The line a run without echoes ends with: which run id went unanswered, and what to start. */
    String noEchoLine() {
        return Phrase.of("no echo came back on %s within %s of the first send: no responder answers run id %s; start "
                + "`%s` on the far side before this run (or raise %s)", EchoRoute.backRunId(runId),
                Durations.format(firstEchoTimeout), runId, responderCommand, Setting.FIRST_ECHO_TIMEOUT).render(names);
    }

    /** Waits, on a thread of its own, for the first echo; without one in time, fails the run through its consumers. */
    private void watchForFirstEcho() {
        Thread watch = new Thread(() -> {
            try {
                if (!firstEchoOrClosed.await(firstEchoTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
                    MessageSink sink = engineSink;
                    if (sink != null) {
                        sink.onError(new UserError(noEchoLine()));
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "msgbench-first-echo");
        watch.setDaemon(true);
        watch.start();
    }

    private void responderFailed(Throwable error) {
        responderErrors.add(error);
        MessageSink sink = engineSink;
        if (sink != null) {
            // the engine fails the run on its consumers' first error: the responder is part of the path
            sink.onError(new IllegalStateException("the echo responder failed: " + error.getMessage(), error));
        }
    }

    /** The responder's failures so far; the run fails on the first through its consumers' sink. */
    public FirstFailure responderErrors() {
        return responderErrors;
    }

    /** The in-process responder, once started; null with a responder elsewhere. */
    public synchronized EchoResponder responder() {
        return responder;
    }

    @Override
    public boolean retainsMessages() {
        return back.retainsMessages();
    }

    @Override
    public String lossHint() {
        if (externalRunId != null && !echoSeen) {
            // a run shorter than the wait for the first echo ends with everything lost: say why
            return noEchoLine();
        }
        String hint = outbound.lossHint();
        return hint != null ? hint : back.lossHint();
    }

    /** The way back's, whose deliveries this run counts: both ways run the one system's settings. */
    @Override
    public DeliveryPromise deliveryPromise() {
        return back.deliveryPromise();
    }

    @Override
    public OptionalInt leaderNode() throws Exception {
        return outbound.leaderNode();
    }

    /** The system's own info, with the pattern and what the latency is: a round trip, never one way. */
    @Override
    public SystemInfo info() {
        SystemInfo info = outbound.info();
        Map<String, Object> settings = new LinkedHashMap<>(info.settings());
        settings.put("pattern", "echo");
        settings.put("latency", EchoRoute.LATENCY);
        settings.put("runId", runId);
        settings.put("returnRunId", runId == null ? null : EchoRoute.backRunId(runId));
        settings.put("responder", externalRunId == null
                ? "in this JVM: a return publisher per producer stream"
                : Phrase.of("another process (responder %s %s)", Setting.RUN_ID, runId).render(names));
        if (externalRunId != null) {
            settings.put("firstEchoTimeoutSeconds", firstEchoTimeout.toNanos() / 1e9);
        }
        return new SystemInfo(info.system(), info.clientVersion(), info.brokerVersion(), info.durability(), settings,
                info.acknowledges());
    }

    /** The responder first, so that nothing is echoed through a closed system. */
    @Override
    public void close() throws Exception {
        EchoResponder stopping;
        synchronized (this) {
            stopping = responder;
            responder = null;
        }
        firstEchoOrClosed.countDown();
        CloseAll.inOrder(Arrays.asList(stopping, outbound, back));
    }

    /** Starts the wait for the first echo with the first send of any stream. */
    private final class FirstSendPublisher extends ForwardingPublisher {

        FirstSendPublisher(Publisher publisher) {
            super(publisher);
        }

        @Override
        public void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception {
            if (!firstSent.get() && firstSent.compareAndSet(false, true)) {
                watchForFirstEcho();
            }
            publisher.publish(message, sequence, intendedSendNanos);
        }
    }

    /** Notes the first echo, and hands every message on. */
    private final class FirstEchoSink implements MessageSink {
        private final MessageSink sink;

        FirstEchoSink(MessageSink sink) {
            this.sink = sink;
        }

        @Override
        public void onMessage(byte[] data, int offset, int length, int lane) {
            seen();
            sink.onMessage(data, offset, length, lane);
        }

        @Override
        public void onMessage(ByteBuffer data, int lane) {
            seen();
            sink.onMessage(data, lane);
        }

        private void seen() {
            if (!echoSeen) {
                echoSeen = true;
                firstEchoOrClosed.countDown();
            }
        }

        @Override
        public void onError(Throwable error) {
            sink.onError(error);
        }
    }
}
