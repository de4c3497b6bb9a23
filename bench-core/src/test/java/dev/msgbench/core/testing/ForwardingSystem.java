package dev.msgbench.core.testing;

import java.util.OptionalInt;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.DeliveryPromise;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.payload.RecordKeys;

/** A real system that a test wraps: every call goes to it, and a subclass overrides the ones it looks at or breaks. */
public abstract class ForwardingSystem implements MessagingSystem {

    protected final MessagingSystem system;

    protected ForwardingSystem(MessagingSystem system) {
        this.system = system;
    }

    @Override
    public String useKeys(RecordKeys keys) {
        return system.useKeys(keys);
    }

    @Override
    public void prepare(RunPlan plan) throws Exception {
        system.prepare(plan);
    }

    @Override
    public Subscriber subscribe(int index, MessageSink sink) throws Exception {
        return system.subscribe(index, sink);
    }

    @Override
    public Publisher publisher(int streamId, AckListener acks) throws Exception {
        return system.publisher(streamId, acks);
    }

    @Override
    public boolean retainsMessages() {
        return system.retainsMessages();
    }

    @Override
    public String lossHint() {
        return system.lossHint();
    }

    @Override
    public DeliveryPromise deliveryPromise() {
        return system.deliveryPromise();
    }

    @Override
    public OptionalInt leaderNode() throws Exception {
        return system.leaderNode();
    }

    @Override
    public SystemInfo info() {
        return system.info();
    }

    @Override
    public void close() throws Exception {
        system.close();
    }
}
