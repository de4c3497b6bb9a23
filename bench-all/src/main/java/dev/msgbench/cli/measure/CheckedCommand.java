package dev.msgbench.cli.measure;

import dev.msgbench.cli.cell.ParsedCell;

/**
 * A measuring command whose flags can all be checked before anything starts. A workload file
 * checks every cell this way first, so that a bad value in cell 12 is reported before cell 1
 * spends half an hour running.
 */
public interface CheckedCommand {

    /**
     * Every check that needs no broker, in the order the command runs them, giving the cell
     * the command runs.
     *
     * @throws picocli.CommandLine.ParameterException or {@link dev.msgbench.core.UserError},
     *         naming the flag
     */
    ParsedCell checkFlags();
}
