package dev.msgbench.core.run;

import java.util.List;

import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.record.ThreadRecorders;
import dev.msgbench.core.time.NanoClock;

/**
 * Sends several producer streams from one thread (--producer-threads): always the message whose
 * intended time is earliest, sleeping until it is due. Each stream keeps its own schedule,
 * sequence numbers and counts, and each message is measured from its own intended time, so the
 * time a message waited for the other streams of its thread is in its latency, as it is in the
 * life of a client that multiplexes.
 *
 * <p>Before every wait, and when it stops, the thread calls {@code endOfBurst} on the publishers
 * of the streams that sent since the last wait: a client may batch what was sent back to back, but
 * never holds a message back across a wait.
 *
 * <p>Only paced runs: a stream without a schedule (unpaced) would never let the next one go, and
 * the outstanding limit of a throughput run is one stream's.
 *
 * <p>IMPLEMENTATION NOTES: a binary heap of the streams by their next intended time (ties by stream
 * id, so that the order is the same every run), with each stream's next time in a parallel array:
 * the next message costs a sift of log2(streams) steps, a few nanoseconds for a thousand streams.
 */
final class SharedProducerThread implements Runnable {

    private final ProducerStream[] heap;
    private final long[] due;
    private int size;
    /** The streams that sent since the last wait, each once (marked by {@link ProducerStream#inBurst}). */
    private final ProducerStream[] burst;
    private int burstSize;
    /** Where a failure belongs: the stream being sent or told its burst ended, else the thread's first. */
    private ProducerStream current;
    private final NanoClock clock;
    private final Recorders recorders;
    private final long giveUpNanos;

    SharedProducerThread(List<ProducerStream> streams, NanoClock clock, Recorders recorders, long giveUpNanos) {
        this.heap = streams.toArray(new ProducerStream[0]);
        this.due = new long[heap.length];
        this.burst = new ProducerStream[heap.length];
        this.current = heap.length == 0 ? null : heap[0];
        this.clock = clock;
        this.recorders = recorders;
        this.giveUpNanos = giveUpNanos;
    }

    @Override
    public void run() {
        ThreadRecorders recorder = recorders.current();
        ProducerStream sending = null;
        try {
            long now = clock.nanoTime();
            for (ProducerStream stream : heap.clone()) {
                long first = stream.next(now);
                if (first == StreamPlan.DONE) {
                    stream.finish(0);
                } else {
                    push(stream, first);
                }
            }
            while (size > 0) {
                ProducerStream stream = heap[0];
                long intended = due[0];
                if (now >= giveUpNanos) {
                    break;
                }
                if (stream.stopRequested()) {
                    pop().finish(1);
                    continue;
                }
                if (intended > now) {
                    // nothing may be due before this message: what the clients hold back must not wait with us
                    endBursts();
                    clock.sleepUntil(intended);
                }
                sending = stream;
                current = stream;
                now = stream.send(intended, recorder);
                sending = null;
                markInBurst(stream);
                long next = stream.next(now);
                if (next == StreamPlan.DONE) {
                    pop().finish(0);
                } else {
                    due[0] = next;
                    siftDown(0);
                }
            }
            endBursts();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            current.failed(t);
        } finally {
            // each stream left holds one message handed out by its plan and not sent, unless it failed sending it
            for (int i = 0; i < size; i++) {
                heap[i].finish(heap[i] == sending ? 0 : 1);
            }
            size = 0;
        }
    }

    private void markInBurst(ProducerStream stream) {
        if (!stream.inBurst) {
            stream.inBurst = true;
            burst[burstSize++] = stream;
        }
    }

    private void endBursts() throws Exception {
        for (int i = 0; i < burstSize; i++) {
            ProducerStream stream = burst[i];
            burst[i] = null;
            stream.inBurst = false;
            current = stream;
            stream.publisher().endOfBurst();
        }
        burstSize = 0;
    }

    private void push(ProducerStream stream, long intended) {
        heap[size] = stream;
        due[size] = intended;
        siftUp(size++);
    }

    private ProducerStream pop() {
        ProducerStream top = heap[0];
        size--;
        heap[0] = heap[size];
        due[0] = due[size];
        heap[size] = null;
        if (size > 0) {
            siftDown(0);
        }
        return top;
    }

    private boolean before(int a, int b) {
        return due[a] < due[b] || due[a] == due[b] && heap[a].streamId() < heap[b].streamId();
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(i, parent)) {
                return;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int left = 2 * i + 1;
            if (left >= size) {
                return;
            }
            int smallest = left + 1 < size && before(left + 1, left) ? left + 1 : left;
            if (!before(smallest, i)) {
                return;
            }
            swap(i, smallest);
            i = smallest;
        }
    }

    private void swap(int a, int b) {
        ProducerStream stream = heap[a];
        heap[a] = heap[b];
        heap[b] = stream;
        long time = due[a];
        due[a] = due[b];
        due[b] = time;
    }
}
