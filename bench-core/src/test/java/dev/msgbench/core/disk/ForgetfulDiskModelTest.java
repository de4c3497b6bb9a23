package dev.msgbench.core.disk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.msgbench.core.testing.NeedsFuse;

/**
 * Random operations on a few files, each seed twice through a power cut, against a model of
 * what is durable: a file's bytes at its last fsync, and the names as they were at the last sync
 * of anything (the journal model of forgetfs.c). Overwrites span block edges, truncates shrink
 * and grow, renames replace.
 */
@NeedsFuse
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ForgetfulDiskModelTest {

    private static final List<String> NAMES = List.of("a", "b", "c", "d");
    private static final int OPERATIONS = 150;

    @TempDir
    Path dir;

    /** One file's contents, as they are and as they were at its last fsync. */
    private static final class Inode {
        byte[] current = new byte[0];
        byte[] durable = new byte[0];
    }

    private final Map<String, Inode> names = new HashMap<>();
    private Map<String, Inode> durableNames = new HashMap<>();

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void afterAPowerCutEveryFileIsAsItWasAtItsLastSyncAndEveryNameAsAtTheLastSyncOfAnything(long seed)
            throws IOException {
        runAndCut(seed, PageCache.WRITE_BACK);
    }

    /** Without the writeback cache the layer sees every write as made, not whole pages later. */
    @ParameterizedTest
    @ValueSource(longs = {7, 8, 9})
    void theSameHoldsWithoutTheWritebackCache(long seed) throws IOException {
        runAndCut(seed, PageCache.WRITE_THROUGH);
    }

    private void runAndCut(long seed, PageCache pageCache) throws IOException {
        Random random = new Random(seed);
        try (ForgetfulDisk disk = ForgetfulDisk.mount(dir.resolve("data"), dir.resolve("forgetfs.log"), pageCache)) {
            for (int round = 0; round < 2; round++) {
                List<String> done = new ArrayList<>();
                for (int i = 0; i < OPERATIONS; i++) {
                    done.add(step(disk.dataDir(), random));
                }
                disk.powerCut();
                names.clear();
                names.putAll(durableNames);
                String trail = pageCache + ", seed " + seed + ", round " + round + ": " + String.join(", ", done);
                assertEquals(new TreeSet<>(names.keySet()), listing(disk.dataDir()), trail);
                for (Map.Entry<String, Inode> name : names.entrySet()) {
                    Inode inode = name.getValue();
                    inode.current = inode.durable.clone();
                    assertArrayEquals(inode.durable, Files.readAllBytes(disk.dataDir().resolve(name.getKey())),
                            name.getKey() + " after " + trail);
                }
            }
        }
    }

    /** One random operation, on the disk and on the model; returns what it did, for a failure's message. */
    private String step(Path data, Random random) throws IOException {
        String name = NAMES.get(random.nextInt(NAMES.size()));
        Path file = data.resolve(name);
        Inode inode = names.get(name);
        int choice = random.nextInt(100);
        if (inode == null) {
            if (choice < 70) {
                Files.createFile(file);
                names.put(name, new Inode());
                return "create " + name;
            }
            return fsyncDirectory(data);
        }
        if (choice < 35) {
            int offset = random.nextInt(inode.current.length + 6000);
            byte[] bytes = new byte[1 + random.nextInt(9000)];
            random.nextBytes(bytes);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                for (long at = offset; buffer.hasRemaining(); ) {
                    at += channel.write(buffer, at);
                }
            }
            inode.current = Arrays.copyOf(inode.current, Math.max(inode.current.length, offset + bytes.length));
            System.arraycopy(bytes, 0, inode.current, offset, bytes.length);
            return "write " + name + " " + offset + "+" + bytes.length;
        }
        if (choice < 45) {
            int size = random.nextInt(inode.current.length + 5000);
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.setLength(size); // ftruncate, down or up
            }
            inode.current = Arrays.copyOf(inode.current, size);
            return "resize " + name + " " + size;
        }
        if (choice < 70) {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.force(random.nextBoolean());
            }
            inode.durable = inode.current.clone();
            durableNames = new HashMap<>(names);
            return "fsync " + name;
        }
        if (choice < 80) {
            String target = NAMES.get(random.nextInt(NAMES.size()));
            if (target.equals(name)) {
                return "nothing";
            }
            Files.move(file, data.resolve(target), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            names.put(target, names.remove(name));
            return "rename " + name + " " + target;
        }
        if (choice < 88) {
            Files.delete(file);
            names.remove(name);
            return "unlink " + name;
        }
        return fsyncDirectory(data);
    }

    private String fsyncDirectory(Path data) throws IOException {
        try (FileChannel directory = FileChannel.open(data, StandardOpenOption.READ)) {
            directory.force(true);
        }
        durableNames = new HashMap<>(names);
        return "fsync dir";
    }

    private static Set<String> listing(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return new TreeSet<>(entries.map(p -> p.getFileName().toString()).toList());
        }
    }
}
