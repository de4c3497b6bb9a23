package dev.msgbench.cli.workers;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How well this host's wall clock is synchronised, as the system reports it: chrony's tracking,
 * else systemd-timesyncd's status, else "unknown". Workers started at one --start-at are only as
 * aligned as their hosts' clocks; the result says how far that was.
 */
public final class ClockSync {

    private static final long TIMEOUT_MILLIS = 2_000;
    private static final int MAX_LINES = 20;

    private static final List<List<String>> COMMANDS = List.of(
            List.of("chronyc", "tracking"),
            List.of("timedatectl", "timesync-status"),
            List.of("timedatectl", "show"));

    private ClockSync() {
    }

    /** The first report one of the commands gives; {"source": "unknown"} when none does. */
    public static Map<String, Object> read() {
        for (List<String> command : COMMANDS) {
            List<String> lines = run(command);
            if (!lines.isEmpty()) {
                return describe(String.join(" ", command), lines);
            }
        }
        Map<String, Object> unknown = new LinkedHashMap<>();
        unknown.put("source", "unknown");
        return unknown;
    }

    /** The offset and whether it is synchronised, where the report says, and the report itself. */
    static Map<String, Object> describe(String source, List<String> lines) {
        Map<String, Object> sync = new LinkedHashMap<>();
        sync.put("source", source);
        for (String line : lines) {
            String trimmed = line.trim();
            if (trimmed.startsWith("System time")) {
                // chronyc: "System time     : 0.000001234 seconds fast of NTP time"
                sync.put("offset", after(trimmed, ':'));
            } else if (trimmed.startsWith("Leap status")) {
                sync.put("synchronized", !after(trimmed, ':').startsWith("Not synchronised"));
            } else if (trimmed.startsWith("Offset:")) {
                // timedatectl timesync-status: "Offset: +1.234ms"
                sync.put("offset", after(trimmed, ':'));
            } else if (trimmed.startsWith("NTPSynchronized=")) {
                sync.put("synchronized", trimmed.endsWith("=yes"));
            }
        }
        sync.put("report", lines.subList(0, Math.min(lines.size(), MAX_LINES)));
        return sync;
    }

    private static String after(String line, char separator) {
        return line.substring(line.indexOf(separator) + 1).trim();
    }

    /** The command's output lines when it ran and succeeded within the timeout; none otherwise. */
    private static List<String> run(List<String> command) {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            // not installed here: the next source is asked, and "unknown" says none answered
            return List.of();
        }
        try (InputStream in = process.getInputStream()) {
            if (!process.waitFor(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
                return List.of();
            }
            List<String> lines = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    lines.add(line.stripTrailing());
                }
            }
            return lines;
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } finally {
            process.destroyForcibly();
        }
    }
}
