package dev.msgbench.cli;

import java.io.PrintWriter;
import java.util.List;

/** Fixed-width text tables, as tune's and a workload's summary print them. */
public final class TextColumns {

    private TextColumns() {
    }

    /** Fixed-width columns two spaces apart: the first {@code labels} left-aligned, the numbers after them right-aligned. */
    public static void print(List<String[]> lines, int labels, PrintWriter out) {
        int[] widths = new int[lines.get(0).length];
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        for (String[] line : lines) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < line.length; i++) {
                String pad = " ".repeat(widths[i] - line[i].length());
                sb.append(i == 0 ? "" : "  ").append(i < labels ? line[i] + (i == line.length - 1 ? "" : pad) : pad + line[i]);
            }
            out.println(sb.toString().stripTrailing());
        }
    }
}
