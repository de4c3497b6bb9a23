package dev.msgbench.rabbit;

import com.rabbitmq.client.ConfirmListener;
import dev.msgbench.core.driver.AckListener;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;

/**
 * Publishes awaiting their publisher confirm, by delivery tag, with a bound on how many may wait:
 * at the bound, {@link #add} blocks, as an application that limits its unconfirmed messages does.
 *
 * <p>IMPLEMENTATION NOTES: a sorted map rather than a ring indexed by tag, because confirms need not
 * come in tag order, so the outstanding tags can spread wider than the bound. The broker may confirm
 * many tags at once ("multiple"): all tags up to and including the one given.
 */
final class PendingConfirms implements ConfirmListener {

    private record Pending(long sequence, long intendedSendNanos) {
    }

    private final ConcurrentNavigableMap<Long, Pending> pending = new ConcurrentSkipListMap<>();
    private final Semaphore permits;
    private final AckListener acks;
    private final String queue;

    PendingConfirms(int maxUnconfirmed, AckListener acks, String queue) {
        this.permits = new Semaphore(maxUnconfirmed);
        this.acks = acks;
        this.queue = queue;
    }

    /** Before the publish with delivery tag {@code tag}; blocks while the bound is reached. */
    void add(long tag, long sequence, long intendedSendNanos) throws InterruptedException {
        permits.acquire();
        pending.put(tag, new Pending(sequence, intendedSendNanos));
    }

    /** The publish with {@code tag} failed before it reached the broker: no confirm will come. */
    void forget(long tag) {
        if (pending.remove(tag) != null) {
            permits.release();
        }
    }

    /** The publish with {@code tag} failed and will not be confirmed: reported failed. */
    void fail(long tag, Throwable cause) {
        settle(tag, false, cause);
    }

    int outstanding() {
        return pending.size();
    }

    @Override
    public void handleAck(long tag, boolean multiple) {
        settle(tag, multiple, null);
    }

    @Override
    public void handleNack(long tag, boolean multiple) {
        settle(tag, multiple, new IOException("RabbitMQ refused (nacked) a message published to queue " + queue));
    }

    /** The channel closed: nothing outstanding will be confirmed any more. */
    void failAll(Throwable cause) {
        settle(Long.MAX_VALUE, true, cause);
    }

    private void settle(long tag, boolean multiple, Throwable failure) {
        if (multiple) {
            ConcurrentNavigableMap<Long, Pending> upTo = pending.headMap(tag, true);
            for (Map.Entry<Long, Pending> entry = upTo.pollFirstEntry(); entry != null; entry = upTo.pollFirstEntry()) {
                report(entry.getValue(), failure);
            }
        } else {
            Pending one = pending.remove(tag);
            if (one != null) {
                report(one, failure);
            }
        }
    }

    private void report(Pending p, Throwable failure) {
        permits.release();
        if (failure == null) {
            acks.acked(p.sequence(), p.intendedSendNanos());
        } else {
            acks.failed(p.sequence(), p.intendedSendNanos(), failure);
        }
    }
}
