package dev.msgbench.core.fault;

import dev.msgbench.core.disk.PowerCut;

/**
 * What a power cut took from one node's disk, as result.json keeps it: the forgetful disk's
 * {@link PowerCut} with the node it served.
 *
 * @param node            the node, from 1
 * @param files           files that had unsynced changes, each now as at its last sync
 * @param restoredBytes   bytes of overwritten or truncated synced data put back
 * @param discardedBytes  bytes of unsynced appends cut off
 * @param namespaceUndone creates, unlinks and renames since the last sync that were undone
 */
public record NodePowerCut(int node, long files, long restoredBytes, long discardedBytes, long namespaceUndone) {

    static NodePowerCut of(int node, PowerCut cut) {
        return new NodePowerCut(node, cut.files(), cut.restoredBytes(), cut.discardedBytes(), cut.namespaceUndone());
    }
}
