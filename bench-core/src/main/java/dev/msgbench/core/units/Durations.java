package dev.msgbench.core.units;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as people write them: 30s, 2m, 500ms, 1h, 1.5s; a bare number is seconds. */
public final class Durations {

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([a-zA-Z]*)");

    private Durations() {
    }

    /** @throws IllegalArgumentException with a message that quotes the value and the accepted units */
    public static Duration parse(String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (examples: 30s, 2m, 500ms, 1h)");
        }
        double number = Double.parseDouble(m.group(1));
        double nanosPerUnit;
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "ns":
                nanosPerUnit = 1;
                break;
            case "us":
                nanosPerUnit = 1e3;
                break;
            case "ms":
                nanosPerUnit = 1e6;
                break;
            case "":
            case "s":
                nanosPerUnit = 1e9;
                break;
            case "m":
            case "min":
                nanosPerUnit = 60e9;
                break;
            case "h":
                nanosPerUnit = 3600e9;
                break;
            default:
                throw new IllegalArgumentException("'" + text + "' has an unknown unit '" + m.group(2)
                        + "' (use ms, s, m or h)");
        }
        return Duration.ofNanos(Math.round(number * nanosPerUnit));
    }

    /** A short form for summaries: 30s, 2m, 1.5s, 250ms. */
    public static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos % 60_000_000_000L == 0 && nanos > 0) {
            return nanos / 60_000_000_000L + "m";
        }
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + "ms";
        }
        return String.format(Locale.US, "%.6fs", nanos / 1e9);
    }
}
