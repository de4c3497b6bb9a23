package dev.msgbench.cli.tune;

import java.util.ArrayList;
import java.util.List;

/** Every (JDK, flag set) pair to run, and the pairs skipped because a JDK lacks a flag. */
public record TuneMatrix(List<Cell> cells, List<String> skipped) {

    /** One child JVM: a JDK, a flag set, and the folder name of its results. */
    public record Cell(Jdk jdk, FlagSet flags) {
        public String id() {
            return jdk.label() + "-" + flags.name();
        }
    }

    public static TuneMatrix expand(List<Jdk> jdks, List<FlagSet> sets) {
        List<Cell> cells = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (Jdk jdk : jdks) {
            for (FlagSet set : sets) {
                if (set.appliesTo(jdk)) {
                    cells.add(new Cell(jdk, set));
                } else {
                    skipped.add(jdk.label() + " " + set.name() + ": skipped, " + set.note());
                }
            }
        }
        return new TuneMatrix(cells, skipped);
    }
}
