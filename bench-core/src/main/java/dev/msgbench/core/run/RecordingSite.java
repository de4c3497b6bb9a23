package dev.msgbench.core.run;

import dev.msgbench.core.record.Recorders;
import dev.msgbench.core.record.ThreadRecorders;

/**
 * One place in the engine that records for whichever thread calls it (a client's consumer or
 * callback threads). It remembers the recorders of the last caller: the same thread calling
 * again, the usual case, then costs one comparison instead of a thread-local lookup, which
 * costs as much as the recording itself.
 */
final class RecordingSite {

    private final Recorders recorders;
    /** Racy on purpose: a recorder's owner is final, so a stale one is only a miss. */
    private ThreadRecorders last;

    RecordingSite(Recorders recorders) {
        this.recorders = recorders;
    }

    ThreadRecorders forCurrentThread() {
        ThreadRecorders r = last;
        if (r == null || !r.isCurrentThread()) {
            r = recorders.current();
            last = r;
        }
        return r;
    }
}
