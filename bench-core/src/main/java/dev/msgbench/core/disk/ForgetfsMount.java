package dev.msgbench.core.disk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.msgbench.core.broker.ProcStat;

/**
 * A forgetfs mount as {@code /proc/self/mountinfo} lists it. Its source names the daemon
 * serving it, {@code msgbench-forgetfs:PID:START} (START: the daemon's start time in clock
 * ticks, {@link ProcStat#startTicks}), so that a mount whose daemon was killed can be
 * told from a live one even after its pid was reused.
 *
 * @param mountPoint where it is mounted
 * @param daemonPid  the pid of the daemon that mounted it
 * @param startTicks the daemon's start time
 */
public record ForgetfsMount(Path mountPoint, long daemonPid, long startTicks) {

    static final String TYPE = "fuse.forgetfs";
    private static final Pattern SOURCE = Pattern.compile("msgbench-forgetfs:(\\d+):(\\d+)");
    private static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

    /** Every forgetfs mount of this mount namespace, oldest first. */
    public static List<ForgetfsMount> list() {
        try {
            return parse(Files.readAllLines(MOUNTINFO, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + MOUNTINFO, e);
        }
    }

    /** The forgetfs mounts on {@code mountPoint}, oldest first (a detached one is no longer listed). */
    public static List<ForgetfsMount> on(Path mountPoint) {
        Path wanted = mountPoint.toAbsolutePath().normalize();
        return list().stream().filter(m -> m.mountPoint.equals(wanted)).toList();
    }

    /**
     * Lines look like {@code 36 35 0:40 / /tmp/x rw,relatime shared:1 - fuse.forgetfs SOURCE rw,...}:
     * the optional fields end at " - ", after which come the type and the source.
     */
    static List<ForgetfsMount> parse(List<String> lines) {
        List<ForgetfsMount> mounts = new ArrayList<>();
        for (String line : lines) {
            int separator = line.indexOf(" - ");
            if (separator < 0) {
                continue;
            }
            String[] before = line.substring(0, separator).split(" ");
            String[] after = line.substring(separator + 3).split(" ");
            if (before.length < 5 || after.length < 2 || !after[0].equals(TYPE)) {
                continue;
            }
            Matcher source = SOURCE.matcher(after[1]);
            if (source.matches()) {
                mounts.add(new ForgetfsMount(Path.of(unescape(before[4])), Long.parseLong(source.group(1)),
                        Long.parseLong(source.group(2))));
            }
        }
        return mounts;
    }

    /** The kernel writes a space, tab, newline or backslash in a path as a 3-digit octal escape. */
    static String unescape(String field) {
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * Whether the daemon that mounted it still runs: the same pid with the same start time, and
     * not a zombie (a killed daemon stays one until its parent collects it).
     */
    public boolean daemonRunning() {
        return ProcStat.startTicks(daemonPid).filter(ticks -> ticks == startTicks).isPresent();
    }
}
