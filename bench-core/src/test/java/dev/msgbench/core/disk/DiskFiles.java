package dev.msgbench.core.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Random;

/** What the disk tests do to files, as a broker would. */
final class DiskFiles {

    private DiskFiles() {
    }

    /** A new file holding {@code data}, fsynced. */
    static Path synced(Path file, byte[] data) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            write(channel, data, 0);
            channel.force(true);
        }
        return file;
    }

    /** All of {@code data} at {@code position}, however many calls it takes. */
    static void write(FileChannel channel, byte[] data, long position) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(data);
        while (buffer.hasRemaining()) {
            position += channel.write(buffer, position);
        }
    }

    static byte[] bytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** The names in {@code dir}, sorted. */
    static List<String> list(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
