package dev.msgbench.core.testing;

import java.util.OptionalInt;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.Publisher;
import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.driver.Subscriber;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.payload.RecordKeys;

/**
 * A real system that a test looks into: once it has prepared the run (to watch what reaches the
 * broker, e.g. a queue of the test's own bound to the run's exchange) and before it closes (to
 * read what the run left on the broker before it is deleted). Everything else is the system's own.
 */
public final class Inspected implements MessagingSystem {

    /** A look at the broker, given the run's plan; may throw anything. */
    public interface Look {
        void at(RunPlan plan) throws Exception;

        Look NONE = plan -> { };
    }

    private final MessagingSystem system;
    private final Look afterPrepare;
    private final Look beforeClose;
    private RunPlan plan;

    public Inspected(MessagingSystem system, Look afterPrepare, Look beforeClose) {
        this.system = system;
        this.afterPrepare = afterPrepare;
        this.beforeClose = beforeClose;
    }

    @Override
    public String useKeys(RecordKeys keys) {
        return system.useKeys(keys);
    }

    @Override
    public void prepare(RunPlan runPlan) throws Exception {
        system.prepare(runPlan);
        this.plan = runPlan;
        afterPrepare.at(runPlan);
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
    public OptionalInt leaderNode() throws Exception {
        return system.leaderNode();
    }

    @Override
    public SystemInfo info() {
        return system.info();
    }

    @Override
    public void close() throws Exception {
        try {
            if (plan != null) {
                beforeClose.at(plan);
            }
        } finally {
            system.close();
        }
    }
}
