package dev.msgbench.core.loopback;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;

/**
 * A connection of the loopback system that several consumers share (--consumer-connections): one
 * thread and one queue, as a client library has one I/O thread per connection, handing each message
 * to the sink of the consumer it is for. Consumer {@code i} of a run with {@code n} connections is on
 * connection {@code i mod n}, in slot {@code i / n}. The thread ends when the last of its consumers
 * closes.
 */
final class LoopbackConnection {

    /** A message and the consumer it is for. */
    private record Delivery(int slot, byte[] message) {
    }

    private final BlockingQueue<Delivery> queue;
    private final MessageSink[] sinks;
    private final Thread thread;
    private final Duration stopWait;
    private int open;

    /** @param consumers how many consumers share it */
    LoopbackConnection(int index, int consumers, int capacity, Duration stopWait) {
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.sinks = new MessageSink[consumers];
        this.stopWait = stopWait;
        this.thread = new Thread(this::consume, "msgbench-loopback-connection-" + index);
        thread.setDaemon(true);
    }

    /** Blocks while the queue is full, as a client's full buffer blocks a publisher. */
    void put(int slot, byte[] message) throws InterruptedException {
        queue.put(new Delivery(slot, message));
    }

    /** Consumer {@code slot} of this connection, receiving on {@code sink}; the thread starts with the first. */
    synchronized Subscriber subscribe(int slot, MessageSink sink) {
        sinks[slot] = sink;
        if (open++ == 0) {
            thread.start();
        }
        return new Subscriber() {
            private boolean closed;

            @Override
            public void awaitReady(Duration timeout) {
            }

            @Override
            public void close() throws InterruptedException {
                if (!closed) {
                    closed = true;
                    closeOne();
                }
            }
        };
    }

    private void closeOne() throws InterruptedException {
        boolean last;
        synchronized (this) {
            last = --open == 0;
        }
        if (last) {
            thread.interrupt();
            thread.join(stopWait.toMillis());
        }
    }

    /** Until interrupted (by the last close), which ends the loop with the flag kept for the thread's owner. */
    private void consume() {
        MessageSink current = null;
        try {
            while (true) {
                Delivery delivery = queue.take();
                current = sinks[delivery.slot()];
                current.onMessage(delivery.message(), 0, delivery.message().length, 0);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            (current == null ? sinks[0] : current).onError(e);
        }
    }
}
