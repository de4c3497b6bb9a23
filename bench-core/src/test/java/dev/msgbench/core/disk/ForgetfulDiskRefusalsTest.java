package dev.msgbench.core.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.UserError;

/** What a machine without FUSE, or a user without root, is told: before anything is started. */
class ForgetfulDiskRefusalsTest {

    @Test
    void refusesToRunAsAnotherUserThanRoot() {
        UserError e = assertThrows(UserError.class, () -> ForgetfulDisk.requireFacilities(ForgetfulDisk.DEV_FUSE, 1000));
        assertEquals("the forgetful disk needs root (it mounts a FUSE file system and may abort its connection); "
                + "this runs as uid 1000: run it as root", e.getMessage());
    }

    @Test
    void refusesAMachineWithoutDevFuse() {
        UserError e = assertThrows(UserError.class,
                () -> ForgetfulDisk.requireFacilities(Path.of("/nonexistent/fuse"), 0));
        assertEquals("the forgetful disk needs /nonexistent/fuse, which this machine lacks: load the fuse module "
                + "(modprobe fuse), or run where FUSE works", e.getMessage());
    }

    @Test
    void readsTheDaemonsReports() {
        assertEquals(new PowerCut(2, 8192, 5000, 3), PowerCut.parse("cut files=2 restored=8192 discarded=5000 undone=3"));
        assertEquals(new Unsynced(1, 4096, 7), Unsynced.parse("status files=1 saved=4096 pending=7"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PowerCut.parse("stopped"));
        assertEquals("not a 'cut' report: stopped", e.getMessage());
    }
}
