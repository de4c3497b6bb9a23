package dev.msgbench.cli;

import dev.msgbench.cli.systems.SystemTarget;
import dev.msgbench.core.run.Pacing;

/**
 * A measuring command whose flags can all be checked before anything starts. A workload file
 * checks every cell this way first, so that a bad value in cell 12 is reported before cell 1
 * spends half an hour running.
 */
interface CheckedCommand {

    /**
     * Every check that needs no broker, in the order the command runs them.
     *
     * @throws picocli.CommandLine.ParameterException or {@link dev.msgbench.core.UserError},
     *         naming the flag
     */
    Checked checkFlags();

    /** What the checks produced and the run needs. */
    record Checked(SystemTarget system, Pacing pacing) {
    }
}
