package dev.msgbench.rabbit.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Why a node stopped during its start, when its log says so in a form worth one line: RabbitMQ
 * lists the settings it rejected under "Error preparing configuration", one "- " line each, among
 * a page of crash report.
 */
final class StartFailure {

    private static final String HEADING = "Error preparing configuration";
    private static final String ITEM = "[error] ";

    private StartFailure() {
    }

    /** The rejected settings joined with "; ", or null when the log shows no configuration error. */
    static String configurationErrors(Path log) {
        List<String> lines;
        try {
            lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log, e);
        }
        List<String> errors = new ArrayList<>();
        boolean inList = false;
        for (String line : lines) {
            if (line.contains(HEADING)) {
                inList = true;
                continue;
            }
            if (!inList) {
                continue;
            }
            int at = line.indexOf(ITEM);
            // "[error] <0.132.0>   - text": the pid field, then the item
            String rest = at < 0 ? "" : line.substring(at + ITEM.length()).replaceFirst("^<[^>]*>\\s*", "");
            if (!rest.startsWith("- ")) {
                break;
            }
            errors.add(rest.substring(2).trim());
        }
        return errors.isEmpty() ? null : String.join("; ", errors);
    }
}
