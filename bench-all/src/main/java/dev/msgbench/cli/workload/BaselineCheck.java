package dev.msgbench.cli.workload;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The baseline names exactly one of the cells to run, by its label (ignoring case): none, or two
 * alike, is a mistake of --baseline or of the file's 'baseline', reported before anything runs.
 */
final class BaselineCheck {

    private BaselineCheck() {
    }

    /**
     * @param cells      the cells to run, after --only
     * @param onlyGiven  whether --only picked them (then a missing baseline may be one it left out)
     * @throws ParameterException for --baseline, a file error with its line for the file's 'baseline'
     */
    static void requireOneCell(CommandLine commandLine, WorkloadFile.Baseline base, List<Cell> cells, boolean onlyGiven) {
        List<Cell> named = cells.stream().filter(c -> c.label().equalsIgnoreCase(base.label())).toList();
        if (named.size() == 1) {
            return;
        }
        List<String> labels = new ArrayList<>();
        (named.isEmpty() ? cells : named).forEach(c -> labels.add(named.isEmpty() ? c.label() : Integer.toString(c.index())));
        String why = named.isEmpty() ? "names no cell" + (onlyGiven ? " that --only picks" : "") + " (cells: "
                + String.join("; ", labels) + ")"
                : "names " + named.size() + " cells (" + String.join(", ", labels) + "); give each a label of its own";
        boolean flag = base.origin().where().equals("--baseline");
        if (flag) {
            throw new ParameterException(commandLine, "--baseline '" + base.label() + "' " + why);
        }
        throw base.origin().error("'baseline' '" + base.label() + "' " + why);
    }
}
