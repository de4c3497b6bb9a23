package dev.msgbench.core.disk;

import java.util.HashMap;
import java.util.Map;

/**
 * What a power cut took away: the daemon's report of its rollback.
 *
 * @param files             files that had unsynced changes, each now as it was at its last sync
 * @param restoredBytes     bytes of overwritten (or truncated) data put back as they were
 * @param discardedBytes    bytes past a file's last synced size cut off: unsynced appends
 * @param namespaceUndone   creates, unlinks and renames since the last sync that were undone
 */
public record PowerCut(long files, long restoredBytes, long discardedBytes, long namespaceUndone) {

    /** Reads "cut files=F restored=R discarded=D undone=U". */
    static PowerCut parse(String report) {
        Map<String, Long> values = fields(report, "cut");
        return new PowerCut(values.get("files"), values.get("restored"), values.get("discarded"), values.get("undone"));
    }

    /** The key=value fields of a daemon's report line that starts with {@code word}. */
    static Map<String, Long> fields(String report, String word) {
        String[] parts = report.split(" ");
        if (!parts[0].equals(word)) {
            throw new IllegalArgumentException("not a '" + word + "' report: " + report);
        }
        Map<String, Long> values = new HashMap<>();
        for (int i = 1; i < parts.length; i++) {
            String[] pair = parts[i].split("=", 2);
            if (pair.length != 2) {
                throw new IllegalArgumentException("malformed field '" + parts[i] + "' in: " + report);
            }
            values.put(pair[0], Long.parseLong(pair[1]));
        }
        return values;
    }

    @Override
    public String toString() {
        return files + " files rolled back (" + restoredBytes + " bytes restored, " + discardedBytes
                + " bytes of unsynced appends discarded), " + namespaceUndone + " unsynced creates, unlinks and renames undone";
    }
}
