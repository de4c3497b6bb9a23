package dev.msgbench.core.disk;

/**
 * How writes reach a forgetful disk, chosen when it is mounted. Either way a power cut forgets
 * what was never synced; the two differ in cost, and in when a full disk says so.
 */
public enum PageCache {

    /**
     * The kernel's writeback cache: a write(2) fills pages, which reach the disk later in large
     * requests (write-back, close, fsync). The cheaper, and the default. A full disk's ENOSPC
     * reaches the writer only when its pages are written back: at fsync or close, once (a later
     * fsync succeeds and the pages are lost), or never; as on a network file system.
     */
    WRITE_BACK,

    /**
     * Every write(2) reaches the disk before it returns, so a full disk fails the write(2) itself
     * with ENOSPC, as ext4 and XFS do (they reserve blocks at write time). Small writes cost a
     * round trip to the daemon each (docs/forgetful-disk.md). Writes through a shared mmap still
     * go through the cache.
     */
    WRITE_THROUGH
}
