package dev.msgbench.cli.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class RunOrderTest {

    private static final Path CELL = Path.of("out", "01-kafka");

    @Test
    void repeatsInterleaveTheCellsSoThatDriftMovesEveryCellAlike() {
        RunOrder order = new RunOrder(3, 1, 2);

        assertEquals(List.of(new RunOrder.Step(0, 1), new RunOrder.Step(1, 1), new RunOrder.Step(2, 1),
                new RunOrder.Step(0, 2), new RunOrder.Step(1, 2), new RunOrder.Step(2, 2)), order.steps());
        assertEquals(2, order.perCell());
        assertEquals(CELL.resolve("run-2"), order.folder(CELL, 2));
        assertEquals(", run 2 of 2", order.which(2));
    }

    @Test
    void repetitionsRunEachCellBackToBack() {
        RunOrder order = new RunOrder(2, 3, 1);

        assertEquals(List.of(new RunOrder.Step(0, 1), new RunOrder.Step(0, 2), new RunOrder.Step(0, 3),
                new RunOrder.Step(1, 1), new RunOrder.Step(1, 2), new RunOrder.Step(1, 3)), order.steps());
        assertEquals(CELL.resolve("rep-3"), order.folder(CELL, 3));
        assertEquals(", repetition 3 of 3", order.which(3));
    }

    @Test
    void aCellRunOnceRunsIntoItsOwnFolderWithoutARunNumber() {
        RunOrder order = new RunOrder(2, 1, 1);

        assertEquals(List.of(new RunOrder.Step(0, 1), new RunOrder.Step(1, 1)), order.steps());
        assertEquals(CELL, order.folder(CELL, 1));
        assertEquals("", order.which(1));
    }
}
