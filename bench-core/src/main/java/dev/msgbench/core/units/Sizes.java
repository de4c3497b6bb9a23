package dev.msgbench.core.units;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte sizes as people write them: 100, 256B, 1KiB, 1MiB, 5KB (KB = 1,000; KiB = 1,024). */
public final class Sizes {

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([a-zA-Z]*)");

    private Sizes() {
    }

    /** @throws IllegalArgumentException with a message that quotes the value and the accepted units */
    public static long parseBytes(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size (examples: 100, 256B, 1KiB, 1MiB)");
        }
        double number = Double.parseDouble(m.group(1));
        long unit;
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "":
            case "b":
                unit = 1;
                break;
            case "k":
            case "kb":
                unit = 1_000;
                break;
            case "kib":
                unit = 1_024;
                break;
            case "m":
            case "mb":
                unit = 1_000_000;
                break;
            case "mib":
                unit = 1_048_576;
                break;
            case "gb":
                unit = 1_000_000_000L;
                break;
            case "gib":
                unit = 1_073_741_824L;
                break;
            default:
                throw new IllegalArgumentException("'" + text + "' has an unknown unit '" + m.group(2)
                        + "' (use B, KB, KiB, MB, MiB, GB or GiB)");
        }
        double bytes = number * unit;
        if (bytes != Math.rint(bytes) || bytes > Long.MAX_VALUE) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number of bytes");
        }
        return (long) bytes;
    }

    /** The shortest exact form: 1MiB, 5KB, 100B. */
    public static String format(long bytes) {
        if (bytes >= 1_048_576 && bytes % 1_048_576 == 0) {
            return bytes / 1_048_576 + "MiB";
        }
        if (bytes >= 1_024 && bytes % 1_024 == 0) {
            return bytes / 1_024 + "KiB";
        }
        if (bytes >= 1_000 && bytes % 1_000 == 0) {
            return bytes / 1_000 + "KB";
        }
        return bytes + "B";
    }
}
