package dev.msgbench.core.echo;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.payload.PayloadHeader;

/**
 * The remote half of an echo run: consumes every message of the outbound destination and
 * publishes its bytes unchanged on the return destination, so the header (stream id, sequence,
 * intended and actual send times) travels back to the producing side, which measures the round
 * trip on its own clock. It reads nothing but the stream id, and never a clock.
 *
 * <p>A return publisher per producer stream, so each stream keeps its destination and its order
 * on the way back; each is used under its own lock, since the sink is called on the clients'
 * threads and some clients' channels are not thread-safe. A stream is read by one subscription,
 * so the lock is uncontended.
 */
public final class EchoResponder implements AutoCloseable {

    private final List<Lane> lanes = new ArrayList<>();
    private final List<Subscriber> subscribers = new ArrayList<>();
    private final Consumer<Throwable> errors;
    private final LongAdder echoed = new LongAdder();
    private final LongAdder acked = new LongAdder();
    private final LongAdder ignored = new LongAdder();

    private EchoResponder(Consumer<Throwable> errors) {
        this.errors = errors;
    }

    /**
     * Opens a return publisher per stream, then subscribes to the outbound destination: every
     * message that arrives from then on is echoed.
     *
     * @param outbound      prepared with the outbound plan ({@link EchoRoute#outbound})
     * @param back          prepared with the return plan ({@link EchoRoute#back})
     * @param subscriptions subscriptions to the outbound destination, as the outbound plan's readers
     * @param errors        where every failure to echo goes (a publish or acknowledgement that failed,
     *                      a subscription that broke); called on the clients' threads
     */
    public static EchoResponder start(MessagingSystem outbound, MessagingSystem back, int producers, int subscriptions,
                                      Duration readyTimeout, Consumer<Throwable> errors) throws Exception {
        EchoResponder responder = new EchoResponder(errors);
        try {
            for (int s = 0; s < producers; s++) {
                responder.lanes.add(new Lane(back.publisher(s, responder.new Acks())));
            }
            MessageSink sink = responder.new Echo();
            for (int i = 0; i < subscriptions; i++) {
                responder.subscribers.add(outbound.subscribe(i, sink));
            }
            for (Subscriber subscriber : responder.subscribers) {
                subscriber.awaitReady(readyTimeout);
            }
            return responder;
        } catch (Exception | Error e) {
            try {
                responder.close();
            } catch (Exception closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** Messages published back so far. */
    public long echoed() {
        return echoed.sum();
    }

    /** Echoes the return destination acknowledged (for systems that acknowledge). */
    public long acked() {
        return acked.sum();
    }

    /** Messages too short for a header or of a stream beyond the producers: not echoed. */
    public long ignored() {
        return ignored.sum();
    }

    /** Stops receiving first, so nothing is published on a closed publisher, then flushes and closes the publishers. */
    @Override
    public void close() throws Exception {
        List<AutoCloseable> all = new ArrayList<>(subscribers);
        all.addAll(lanes);
        CloseAll.inOrder(all);
    }

    /** One stream's way back. */
    private static final class Lane implements AutoCloseable {
        final Publisher publisher;
        /** For messages that arrive in a buffer: the publisher may keep no reference, so it is reused. */
        byte[] scratch = new byte[0];

        Lane(Publisher publisher) {
            this.publisher = publisher;
        }

        synchronized void echo(byte[] message) throws Exception {
            publisher.publish(message, PayloadHeader.sequence(message, 0), PayloadHeader.intendedNanos(message, 0));
            // a client that holds messages back for a burst would otherwise keep this one until the next
            publisher.endOfBurst();
        }

        synchronized void echo(ByteBuffer data) throws Exception {
            int length = data.remaining();
            if (scratch.length != length) {
                scratch = new byte[length];
            }
            data.duplicate().get(scratch);
            echo(scratch);
        }

        @Override
        public synchronized void close() throws Exception {
            try {
                publisher.flush();
            } finally {
                publisher.close();
            }
        }
    }

    private final class Echo implements MessageSink {

        @Override
        public void onMessage(byte[] data, int offset, int length, int lane) {
            if (length < PayloadHeader.BYTES) {
                ignored.increment();
                return;
            }
            Lane to = laneOf(PayloadHeader.streamId(data, offset));
            if (to == null) {
                return;
            }
            byte[] message = offset == 0 && length == data.length ? data : Arrays.copyOfRange(data, offset,
                    offset + length);
            send(() -> to.echo(message));
        }

        @Override
        public void onMessage(ByteBuffer data, int lane) {
            if (data.remaining() < PayloadHeader.BYTES) {
                ignored.increment();
                return;
            }
            Lane to = laneOf(PayloadHeader.streamId(data));
            if (to == null) {
                return;
            }
            send(() -> to.echo(data));
        }

        private void send(Echoing echoing) {
            try {
                echoing.run();
                echoed.increment();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                errors.accept(e);
            } catch (Exception e) {
                errors.accept(e);
            }
        }

        @Override
        public void onError(Throwable error) {
            errors.accept(error);
        }

        private Lane laneOf(int streamId) {
            if (streamId < 0 || streamId >= lanes.size()) {
                ignored.increment();
                return null;
            }
            return lanes.get(streamId);
        }
    }

    private interface Echoing {
        void run() throws Exception;
    }

    /** The responder's own acknowledgements: counted, and a refused echo fails the run. */
    private final class Acks implements AckListener {

        @Override
        public void acked(long sequence, long intendedSendNanos) {
            acked.increment();
        }

        @Override
        public void failed(long sequence, long intendedSendNanos, Throwable error) {
            errors.accept(error);
        }
    }
}
