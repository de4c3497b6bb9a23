package dev.msgbench.cli.workload;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Where a workload's results go without --output, and the folder of each cell inside. */
final class ResultsFolders {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private ResultsFolders() {
    }

    /** results/&lt;timestamp&gt;-&lt;the file's name without its extension&gt;. */
    static Path byDefault(Path file) {
        return Path.of("results", LocalDateTime.now().format(STAMP) + "-" + slug(stem(file)));
    }

    /** &lt;nn&gt;-&lt;label&gt;: the cell's number keeps the file's order in a listing. */
    static Path ofCell(Path dir, Cell cell) {
        return dir.resolve(String.format(Locale.US, "%02d-%s", cell.index(), slug(cell.label())));
    }

    private static String stem(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    /** A folder name from a label: lower case, letters, digits and dashes. */
    static String slug(String label) {
        String slug = label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (slug.length() > 60) {
            slug = slug.substring(0, 60).replaceAll("-+$", "");
        }
        return slug.isEmpty() ? "cell" : slug;
    }
}
