package dev.msgbench.cli.tune;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.msgbench.core.UserError;

/**
 * What {@code --baseline NAME} compares with what. NAME is a flag set ("G1": on each JDK, that
 * JDK's other sets against its G1) or one cell ("jdk17-G1": every other cell against it).
 */
public final class TuneBaseline {

    private TuneBaseline() {
    }

    /**
     * The baseline cell's id of every cell that has one (the baseline cells themselves have none),
     * in the matrix's order.
     *
     * @throws UserError naming --baseline when NAME is neither a flag set nor a cell of the matrix
     */
    public static Map<String, String> of(String name, List<TuneMatrix.Cell> cells) {
        Map<String, String> bases = new LinkedHashMap<>();
        for (TuneMatrix.Cell cell : cells) {
            if (cell.id().equalsIgnoreCase(name)) {
                cells.stream().filter(c -> c != cell).forEach(c -> bases.put(c.id(), cell.id()));
                return bases;
            }
        }
        boolean found = false;
        for (TuneMatrix.Cell cell : cells) {
            if (cell.flags().name().equalsIgnoreCase(name)) {
                found = true;
                cells.stream().filter(c -> c != cell && c.jdk().equals(cell.jdk())).forEach(c -> bases.put(c.id(), cell.id()));
            }
        }
        if (!found) {
            Set<String> choices = new LinkedHashSet<>();
            cells.forEach(c -> choices.add(c.flags().name()));
            cells.forEach(c -> choices.add(c.id()));
            throw new UserError("--baseline " + name + ": not one of the sets this tune runs; give one of "
                    + String.join(", ", choices));
        }
        return bases;
    }
}
