package dev.msgbench.core.broker;

import dev.msgbench.core.disk.PageCache;

/**
 * What a local broker's nodes keep their data on: plain directories, or forgetful disks
 * ({@link dev.msgbench.core.disk.ForgetfulDisk}) behind the kernel's writeback cache or without it.
 * A disk that will be filled must be write-through, so that the broker's own write fails with
 * ENOSPC, as on ext4; behind the cache only a later fsync or close would hear of it.
 */
public enum DataDisks {
    /** The data dirs as they are: no fault of the disk can be done. */
    PLAIN(null),
    /** Forgetful disks behind the writeback cache: for power cuts and slow disks, the cheaper. */
    FORGETFUL(PageCache.WRITE_BACK),
    /** Forgetful disks whose every write(2) reaches the disk: for a full disk. */
    FORGETFUL_WRITE_THROUGH(PageCache.WRITE_THROUGH);

    private final PageCache pageCache;

    DataDisks(PageCache pageCache) {
        this.pageCache = pageCache;
    }

    public boolean forgetful() {
        return pageCache != null;
    }

    /** How writes reach a forgetful disk; null for {@link #PLAIN}. */
    public PageCache pageCache() {
        return pageCache;
    }
}
