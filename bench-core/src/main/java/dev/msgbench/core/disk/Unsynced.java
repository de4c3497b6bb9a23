package dev.msgbench.core.disk;

import java.util.Map;

/**
 * What a power cut would take away now.
 *
 * @param files          files with changes since their last sync
 * @param savedBytes     bytes of synced data changed since, which the layer keeps to put back (in
 *                       memory, unless they were zeros); appends need none. Only what reached the
 *                       layer: the kernel's page cache holds a write until write-back, close or sync
 * @param pendingChanges creates, unlinks and renames since the last sync
 */
public record Unsynced(long files, long savedBytes, long pendingChanges) {

    /** Reads "status files=F saved=S pending=P". */
    static Unsynced parse(String report) {
        Map<String, Long> values = PowerCut.fields(report, "status");
        return new Unsynced(values.get("files"), values.get("saved"), values.get("pending"));
    }
}
