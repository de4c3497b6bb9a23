package dev.msgbench.core.testing;

import dev.msgbench.core.driver.MessagingSystem;
import dev.msgbench.core.driver.RunPlan;

/**
 * A real system that a test looks into: once it has prepared the run (to watch what reaches the
 * broker, e.g. a queue of the test's own bound to the run's exchange) and before it closes (to
 * read what the run left on the broker before it is deleted). Everything else is the system's own.
 */
public final class Inspected extends ForwardingSystem {

    /** A look at the broker, given the run's plan; may throw anything. */
    public interface Look {
        void at(RunPlan plan) throws Exception;

        Look NONE = plan -> { };
    }

    private final Look afterPrepare;
    private final Look beforeClose;
    private RunPlan plan;

    public Inspected(MessagingSystem system, Look afterPrepare, Look beforeClose) {
        super(system);
        this.afterPrepare = afterPrepare;
        this.beforeClose = beforeClose;
    }

    @Override
    public void prepare(RunPlan runPlan) throws Exception {
        system.prepare(runPlan);
        this.plan = runPlan;
        afterPrepare.at(runPlan);
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
