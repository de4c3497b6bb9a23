package dev.msgbench.core.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;

/** Main classes that the disk tests run in child JVMs. */
final class DiskChildMains {

    /** The records a sync covers in {@link AppendsAndSyncs}, and those it appends unsynced at the end. */
    static final int RECORDS_PER_SYNC = 7;
    static final int UNSYNCED_RECORDS = 3;
    static final int RECORD_BYTES = 1000;

    private DiskChildMains() {
    }

    /** Record {@code index} of {@link AppendsAndSyncs}'s stream: its bytes depend on the index alone. */
    static byte[] record(long index) {
        byte[] bytes = new byte[RECORD_BYTES];
        new Random(index).nextBytes(bytes);
        return bytes;
    }

    /**
     * Appends records to args[0] as a log-writing broker does, an fsync after every
     * {@value #RECORDS_PER_SYNC}, args[1] times; then {@value #UNSYNCED_RECORDS} records more, never
     * synced; says "synced LENGTH" and waits to be killed.
     */
    static final class AppendsAndSyncs {
        public static void main(String[] args) throws IOException {
            try (FileChannel log = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                int syncs = Integer.parseInt(args[1]);
                long index = 0;
                for (int sync = 0; sync < syncs; sync++) {
                    for (int i = 0; i < RECORDS_PER_SYNC; i++) {
                        append(log, index++);
                    }
                    log.force(false);
                }
                long synced = log.size();
                for (int i = 0; i < UNSYNCED_RECORDS; i++) {
                    append(log, index++);
                }
                System.out.println("synced " + synced);
                System.out.flush();
                while (System.in.read() >= 0) {
                    // until the test kills this JVM
                }
            }
        }

        private static void append(FileChannel log, long index) throws IOException {
            ByteBuffer record = ByteBuffer.wrap(record(index));
            while (record.hasRemaining()) {
                log.write(record);
            }
        }
    }

    /**
     * Creates args[0] with {@value #RECORD_BYTES} bytes, says "writing" and syncs it (on a slow
     * disk, the test kills it while the sync is held); then says "synced" and waits to be killed.
     */
    static final class WritesAndSyncs {
        public static void main(String[] args) throws IOException {
            try (FileChannel file = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                ByteBuffer record = ByteBuffer.wrap(record(0));
                while (record.hasRemaining()) {
                    file.write(record);
                }
                System.out.println("writing");
                System.out.flush();
                file.force(false);
                System.out.println("synced");
                System.out.flush();
                while (System.in.read() >= 0) {
                    // until the test kills this JVM
                }
            }
        }
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
