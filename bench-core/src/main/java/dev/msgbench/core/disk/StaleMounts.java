package dev.msgbench.core.disk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.msgbench.core.UserError;

/**
 * Detaches the forgetfs mounts whose daemon is gone: the counterpart of the broker StaleReaper
 * and of the NamespaceReaper, run before every mount.
 *
 * <p>A daemon ends its own mount when its owner JVM dies (its input closes), so only a daemon
 * killed itself leaves one behind: a mount that answers every access with "Transport endpoint is
 * not connected", and would make deleting the broker's temp dir around it fail. Such a mount is
 * detached lazily: nothing can use it any more, and a process that still holds a file in it
 * would make a plain unmount fail.
 */
public final class StaleMounts {

    private static final long UMOUNT_TIMEOUT_SECONDS = 20;

    private StaleMounts() {
    }

    /**
     * @return the mount points it detached; none when not root: only root mounts forgetful disks
     *         (ForgetfulDisk refuses anyone else) and only root can detach them, so another
     *         user's broker start neither can nor needs to, and must not fail over a mount it never made
     */
    public static List<Path> reap() {
        int uid;
        try {
            uid = ForgetfulDisk.uid();
        } catch (UserError e) {
            return List.of(); // not Linux: no forgetful disk was ever mounted here
        }
        return reap(uid);
    }

    static List<Path> reap(int uid) {
        if (uid != 0) {
            return List.of();
        }
        List<Path> reaped = new ArrayList<>();
        for (ForgetfsMount mount : ForgetfsMount.list()) {
            if (!mount.daemonRunning() && stillOnTop(mount)) {
                detach(mount.mountPoint());
                reaped.add(mount.mountPoint());
            }
        }
        return reaped;
    }

    /**
     * Whether the mount of a daemon found gone is still the one on top of its mount point: asked
     * again after the daemon was, because the list may be older than its end. At a power cut the
     * daemon unmounts before it exits and a new daemon mounts on the same path at once, so a run
     * that read the list before the cut, and found the old daemon gone after it, would otherwise
     * detach the new, live mount of another run (seen as files vanishing from a disk in a test
     * beside another fork's broker start). A daemon that was killed never unmounted: its mount is
     * still listed.
     */
    static boolean stillOnTop(ForgetfsMount mount) {
        List<ForgetfsMount> now = ForgetfsMount.on(mount.mountPoint());
        return !now.isEmpty() && now.get(now.size() - 1).equals(mount);
    }

    /** {@code umount -l}; a mount that is already gone is fine. */
    static void detach(Path mountPoint) {
        List<String> command = List.of("umount", "-l", mountPoint.toString());
        try {
            Process umount = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            if (!umount.waitFor(UMOUNT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                umount.destroyForcibly();
                throw new IllegalStateException("'" + String.join(" ", command) + "' did not end within "
                        + UMOUNT_TIMEOUT_SECONDS + " s");
            }
            String output = new String(umount.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (umount.exitValue() != 0 && !ForgetfsMount.on(mountPoint).isEmpty()) {
                throw new IllegalStateException("'" + String.join(" ", command) + "' failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run '" + String.join(" ", command) + "'", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running '" + String.join(" ", command) + "'", e);
        }
    }
}
