package dev.msgbench.nats;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import dev.msgbench.core.FirstFailure;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.nats.wire.WireConnection;

/**
 * A direct receiving connection that consumers of several topics share: one reader thread, each
 * message handed to its consumer's sink by the subscription id it arrived on.
 */
final class DirectConsumerLink implements AutoCloseable {

    private final WireConnection wire;
    private final SidRouter router;

    private DirectConsumerLink(WireConnection wire, SidRouter router) {
        this.wire = wire;
        this.router = router;
    }

    static DirectConsumerLink open(String url, int index, String name, Duration timeout, boolean startedBySuite, Probes probes)
            throws IOException {
        SidRouter router = new SidRouter(probes);
        return new DirectConsumerLink(WireConnection.open(url, index, name, timeout, startedBySuite, new FirstFailure(), router),
                router);
    }

    WireConnection wire() {
        return wire;
    }

    /** Subscribes {@code subject} for {@code to}; in place once a later ping returns. */
    long subscribe(String subject, MessageSink to) throws IOException {
        long sid = router.add(to);
        wire.subscribe(subject, null, sid);
        return sid;
    }

    /** Ends a consumer's subscriptions: what is still on its way for them is dropped. */
    void unsubscribe(List<Long> sids) throws IOException {
        for (long sid : sids) {
            router.remove(sid);
            wire.unsubscribe(sid);
        }
    }

    @Override
    public void close() throws IOException {
        wire.close();
    }
}
