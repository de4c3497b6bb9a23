package dev.msgbench.core.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a value at a percentile from a written .hgrm file, as a user of the files would:
 * the first row whose percentile reaches the one asked for.
 */
final class RunResultPercentile {

    private RunResultPercentile() {
    }

    static double latencyMsAt(Path dir, String file, double percentile) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve(file));
        for (String line : lines) {
            String[] cols = line.trim().split("\\s+");
            if (cols.length == 4 && !line.startsWith("#") && !cols[0].equals("Value")) {
                double p = Double.parseDouble(cols[1]) * 100;
                if (p >= percentile - 1e-9) {
                    return Double.parseDouble(cols[0]);
                }
            }
        }
        throw new IllegalStateException("no row at p" + percentile + " in " + file);
    }
}
