package dev.msgbench.cli.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Which cell runs when, as {cell, run number}: each cell's repetitions back to back, or its
 * repeats interleaved with the other cells' (A B C A B C ...), so that a machine that drifts over
 * the workload's minutes moves every cell alike. Repetitions and repeats are never both above 1.
 */
final class RunOrder {

    /**
     * @param cell the cell's place among those run, from 0
     * @param run  its run number, from 1
     */
    record Step(int cell, int run) {
    }

    private final int cells;
    private final int repetitions;
    private final int repeats;

    RunOrder(int cells, int repetitions, int repeats) {
        this.cells = cells;
        this.repetitions = repetitions;
        this.repeats = repeats;
    }

    /** How many times each cell runs. */
    int perCell() {
        return Math.max(repetitions, repeats);
    }

    List<Step> steps() {
        List<Step> order = new ArrayList<>();
        if (repeats > 1) {
            for (int r = 1; r <= repeats; r++) {
                for (int i = 0; i < cells; i++) {
                    order.add(new Step(i, r));
                }
            }
        } else {
            for (int i = 0; i < cells; i++) {
                for (int r = 1; r <= repetitions; r++) {
                    order.add(new Step(i, r));
                }
            }
        }
        return order;
    }

    /** The cell's own folder when it runs once, else a folder per run inside it: run-k for repeats, rep-k for repetitions. */
    Path folder(Path cellDir, int run) {
        return perCell() == 1 ? cellDir : cellDir.resolve((repeats > 1 ? "run-" : "rep-") + run);
    }

    /** ", run 2 of 5" or ", repetition 2 of 3" for the line that starts a run; nothing when a cell runs once. */
    String which(int run) {
        return perCell() == 1 ? "" : (repeats > 1 ? ", run " : ", repetition ") + run + " of " + perCell();
    }
}
