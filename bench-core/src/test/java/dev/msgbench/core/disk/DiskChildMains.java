package dev.msgbench.core.disk;

import java.io.IOException;
import java.nio.file.Path;

/** Main classes that the disk tests run in child JVMs. */
final class DiskChildMains {

    private DiskChildMains() {
    }

    /** Mounts a forgetful disk on args[0] (log args[1]), says "mounted DAEMON_PID", then waits to be killed. */
    static final class MountsAndWaits {
        public static void main(String[] args) throws IOException {
            ForgetfulDisk disk = ForgetfulDisk.mount(Path.of(args[0]), Path.of(args[1]));
            System.out.println("mounted " + disk.daemonPid());
            System.out.flush();
            while (System.in.read() >= 0) {
                // until the test kills this JVM, or ends its input
            }
            disk.close();
        }
    }
}
