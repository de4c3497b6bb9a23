package dev.msgbench.core.run;

import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.fault.FaultEvent;

/**
 * Who is told a run's figures while it goes (a metrics endpoint). Told on the progress monitor's
 * thread, from the interval the monitor has just written to latency.hlog and intervals.csv: the
 * figures cost the send and receive paths nothing, and say what the result files say.
 *
 * <p>Implementations must return quickly: the monitor's next tick waits for them.
 */
public interface LiveFigures {

    /** Tells nobody. */
    LiveFigures NONE = new LiveFigures() {
        @Override
        public void started(RunSpec config, SystemInfo info) {
        }

        @Override
        public void interval(IntervalFigures figures) {
        }

        @Override
        public void fault(FaultEvent event) {
        }
    };

    /** Once, when sending starts: what runs and how. */
    void started(RunSpec config, SystemInfo info);

    /** Each interval, about once a second, and once more at the end with the run's final counts. */
    void interval(IntervalFigures figures);

    /** Each fault once it is over, on the fault injector's thread. */
    void fault(FaultEvent event);
}
