package dev.msgbench.cli.cell;

import java.nio.file.Path;

/**
 * Runs one parsed cell and gives back how it ended, in memory. The run still writes its files
 * (result.json, histograms, interval log, broker logs) into the folder, for people and for
 * reports; the commands that run cells read the outcome, not the folder.
 *
 * <p>A cell that fails comes back as an outcome too, after its failure was reported as the
 * command line reports it, so that run and sweep can go on with the next cell.
 */
public interface CellRunner {

    CellOutcome run(ParsedCell cell, Path outputDir);
}
