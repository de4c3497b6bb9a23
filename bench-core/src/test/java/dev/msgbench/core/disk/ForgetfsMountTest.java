package dev.msgbench.core.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.broker.ProcStat;

class ForgetfsMountTest {

    @Test
    void findsForgetfsMountsAndTheirDaemonsInTheMountTable() {
        List<String> mountinfo = List.of(
                "23 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw",
                "43 23 0:39 / /sys/fs/fuse/connections rw,relatime - fusectl fusectl rw",
                "60 23 0:40 / /tmp/x/node\\0401/data rw,nosuid,nodev,relatime shared:30 - fuse.forgetfs "
                        + "msgbench-forgetfs:4242:987654 rw,user_id=0,group_id=0,default_permissions,allow_other",
                "61 23 0:41 / /mnt/other rw,relatime - fuse.sshfs host:/ rw");
        assertEquals(List.of(new ForgetfsMount(Path.of("/tmp/x/node 1/data"), 4242, 987654)),
                ForgetfsMount.parse(mountinfo));
    }

    @Test
    void unescapesTheKernelsOctalEscapesOnly() {
        assertEquals("a b\tc\\d", ForgetfsMount.unescape("a\\040b\\011c\\134d"));
        assertEquals("a\\9", ForgetfsMount.unescape("a\\9"));
    }

    @Test
    void aDaemonRunsWhenItsPidHasItsStartTime() {
        long self = ProcessHandle.current().pid();
        long ticks = ProcStat.startTicks(self).orElseThrow();
        assertTrue(new ForgetfsMount(Path.of("/x"), self, ticks).daemonRunning());
        assertFalse(new ForgetfsMount(Path.of("/x"), self, ticks + 1).daemonRunning(), "a reused pid");
        assertFalse(new ForgetfsMount(Path.of("/x"), Long.MAX_VALUE, ticks).daemonRunning(), "no such process");
    }
}
