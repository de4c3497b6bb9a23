package dev.msgbench.core.net;

import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names of the namespaces a run makes: {@code mb<pid>x<tag>-<role>}, where pid and tag (from the
 * start time) name the JVM that made them, so that a later run can tell whether their maker still
 * runs (pids are reused; a pid with another start time is somebody else).
 */
final class NamespaceNames {

    private static final Pattern OURS = Pattern.compile("mb(\\d+)x([0-9a-z]+)-[a-z0-9]+");

    private NamespaceNames() {
    }

    /** The prefix of every namespace this JVM makes. */
    static String prefixOf(ProcessHandle owner) {
        return "mb" + owner.pid() + "x" + tagOf(owner).orElse("0") + "-";
    }

    /** True for a namespace some msgbench run made whose maker no longer runs. */
    static boolean isOrphan(String namespace) {
        Matcher m = OURS.matcher(namespace);
        if (!m.matches()) {
            return false;
        }
        Optional<ProcessHandle> owner = ProcessHandle.of(Long.parseLong(m.group(1)));
        return owner.isEmpty() || !owner.flatMap(NamespaceNames::tagOf).orElse("").equals(m.group(2));
    }

    /** A few base-36 characters of the start time: short, as interface and namespace names want. */
    private static Optional<String> tagOf(ProcessHandle process) {
        return process.info().startInstant().map(Instant::toEpochMilli)
                .map(millis -> Long.toString(Math.floorMod(millis / 10, 36L * 36 * 36 * 36), 36));
    }
}
