package dev.msgbench.core.broker;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Ends a native broker (nats-server, redis-server, RabbitMQ and its epmd) when the JVM that started
 * it dies, however it dies: SIGKILL runs no shutdown hook, and the broker would go on serving, on
 * its ports and its disk, until the next run's {@link StaleReaper}. A Java child needs none: it
 * runs under {@link ParentWatchdog} in its own JVM.
 *
 * <p>IMPLEMENTATION NOTES. The watchdog is a small {@code sh} beside the broker, in a session of
 * its own (so Ctrl+C at the terminal does not end it), blocked reading its stdin: a pipe whose only
 * write end this JVM holds. The kernel closes that end when this JVM dies, the read returns, and
 * the shell SIGKILLs the broker's process group, then deletes the broker's temp dir and marker, as
 * the stale reaper would. The broker leads a session of its own ({@code setsid}), so its group is
 * it and every process it started that did not leave: RabbitMQ's beam.smp, erl_child_setup and
 * inet_gethost, a Redis fork saving in the background. Nothing polls, nothing is tuned, and the
 * death is seen at once. Chosen over:
 * <ul>
 *   <li>a helper that polls the owner's pid: a delay, and a reused pid to guard against;</li>
 *   <li>{@code prctl(PR_SET_PDEATHSIG)}: native code, and it fires when the <em>thread</em> that
 *       forked ends, not the JVM;</li>
 *   <li>a shell as the broker's parent ({@code sh -c 'broker & read; kill'}): the pid the suite
 *       signals, pauses, watches and records would be the shell's, not the broker's.</li>
 * </ul>
 * When the suite stops the broker itself, it ends the watchdog once the broker is gone; a group
 * id is not reused while any process of the group lives, so the watchdog cannot hit another group.
 */
final class OwnerWatchdog {

    /**
     * $1 the broker's process group, $2 its temp dir or "", $3 its marker or "". Written for dash,
     * Debian's sh, whose kill takes a negative pid (a group) after the signal but no "--". The wait
     * after the KILL is bounded (10 s): a group whose members the kernel has not ended yet still
     * gets its files deleted, which it can no longer write.
     */
    private static final String SCRIPT = """
            read -r _
            kill -KILL "-$1" 2>/dev/null
            i=0
            while [ "$i" -lt 200 ] && kill -0 "-$1" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
            [ -z "$2" ] || rm -rf -- "$2"
            [ -z "$3" ] || rm -f -- "$3"
            """;

    private final Process process;

    private OwnerWatchdog(Process process) {
        this.process = process;
    }

    /**
     * Watches this JVM for the process group {@code group} (a broker that leads its own session).
     *
     * @param tempDir deleted after the kill, if {@link TempDirs} named it; or null
     * @param marker  the broker's {@link ProcessMarker}, deleted after the kill; or null
     */
    static OwnerWatchdog start(String name, long group, Path setsid, Path tempDir, Path marker) throws IOException {
        String dir = tempDir != null && TempDirs.isOurs(tempDir) ? tempDir.toAbsolutePath().toString() : "";
        Process process = new ProcessBuilder(List.of(setsid.toString(), "sh", "-c", SCRIPT,
                "msgbench watchdog of " + name, Long.toString(group), dir,
                marker == null ? "" : marker.toAbsolutePath().toString()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        // its stdin stays open, held by the Process object: this JVM's end of the pipe
        return new OwnerWatchdog(process);
    }

    /** Ends the watchdog without it acting: the broker is stopped, by the suite. */
    void end() {
        process.destroyForcibly();
        ManagedProcess.awaitDead(process);
    }
}
