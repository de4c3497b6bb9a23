package dev.msgbench.core.loopback;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;

import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;

/** One consumer thread of the loopback system: takes each message and hands it to the core. */
final class LoopbackConsumer implements Subscriber {

    private final Thread thread;
    private final Duration stopWait;

    LoopbackConsumer(int index, BlockingQueue<byte[]> queue, MessageSink sink, Duration stopWait) {
        this.stopWait = stopWait;
        this.thread = new Thread(() -> consume(queue, sink), "msgbench-loopback-consumer-" + index);
        thread.setDaemon(true);
        thread.start();
    }

    /** Until interrupted (by close), which ends the loop with the flag kept for the thread's owner. */
    static void consume(BlockingQueue<byte[]> queue, MessageSink sink) {
        try {
            while (true) {
                byte[] message = queue.take();
                sink.onMessage(message, 0, message.length, 0);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            sink.onError(e);
        }
    }

    /** The thread is taking from its queue as soon as it started. */
    @Override
    public void awaitReady(Duration timeout) {
    }

    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join(stopWait.toMillis());
    }
}
