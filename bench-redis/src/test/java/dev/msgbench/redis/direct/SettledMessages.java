package dev.msgbench.redis.direct;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.msgbench.core.driver.AckListener;

/** Writes down how each message was settled, in order: "acked 3 at 3007", "failed 4 at 4007: why". */
final class SettledMessages implements AckListener {

    private final List<String> events = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void acked(long sequence, long intendedSendNanos) {
        events.add("acked " + sequence + " at " + intendedSendNanos);
    }

    @Override
    public void failed(long sequence, long intendedSendNanos, Throwable error) {
        events.add("failed " + sequence + " at " + intendedSendNanos + ": " + error.getMessage());
    }

    List<String> all() {
        synchronized (events) {
            return new ArrayList<>(events);
        }
    }
}
