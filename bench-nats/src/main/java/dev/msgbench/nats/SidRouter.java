package dev.msgbench.nats;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.nats.wire.WireConnection;

/**
 * The receiver of a direct connection that consumers of several topics share: each MSG goes to
 * the sink of the consumer that owns its subscription id, on the connection's reader thread.
 *
 * <p>IMPLEMENTATION NOTES: ids are handed out in order, so the sinks are an array indexed by id;
 * a new id's slot is written under the lock and published by the volatile write of the array
 * that follows, which the reader's volatile read of it sees (before its SUB left, so before any
 * of its messages came). Growing doubles, so a connection of a million subscriptions costs no
 * more than a few copies.
 */
final class SidRouter implements WireConnection.MessageReceiver {

    private final Probes probes;
    private volatile MessageSink[] sinks = new MessageSink[16];
    private int nextSid; // guarded by this

    SidRouter(Probes probes) {
        this.probes = probes;
    }

    /** A new subscription id whose messages go to {@code sink}. */
    synchronized long add(MessageSink sink) {
        MessageSink[] s = sinks;
        if (nextSid == s.length) {
            s = Arrays.copyOf(s, s.length * 2);
        }
        s[nextSid] = sink;
        sinks = s;
        return nextSid++;
    }

    /** Messages of {@code sid} still on their way after its UNSUB are dropped: their consumer has closed. */
    synchronized void remove(long sid) {
        MessageSink[] s = sinks;
        s[(int) sid] = null;
        sinks = s;
    }

    @Override
    public void message(long sid, byte[] buffer, int offset, int length) {
        MessageSink[] s = sinks;
        MessageSink to = sid < s.length ? s[(int) sid] : null;
        if (to != null) {
            deliver(probes, to, buffer, offset, length);
        }
    }

    /** A probe to the probes, anything else to the core: what every direct receiver does with a message. */
    static void deliver(Probes probes, MessageSink to, byte[] buffer, int offset, int length) {
        if (Probes.isProbe(length)) {
            probes.arrived(Arrays.copyOfRange(buffer, offset, offset + length));
        } else {
            to.onMessage(buffer, offset, length, 0);
        }
    }

    /** The connection's failure is every consumer's on it. */
    @Override
    public void failed(IOException failure) {
        Set<MessageSink> told = Collections.newSetFromMap(new IdentityHashMap<>());
        for (MessageSink sink : sinks) {
            if (sink != null && told.add(sink)) {
                sink.onError(failure);
            }
        }
    }
}
