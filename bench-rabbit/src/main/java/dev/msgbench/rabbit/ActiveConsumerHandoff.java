package dev.msgbench.rabbit;

import com.rabbitmq.stream.OffsetSpecification;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What one single-active-consumer group of this JVM has read of each stream (each partition of a
 * super stream): where the consumer that the broker makes active next resumes.
 *
 * <p>IMPLEMENTATION NOTES: the broker picks each stream's active consumer anew as consumers of the
 * group subscribe and leave, and asks the newly active one where to start. The group's consumers
 * subscribe before the first publish, so a start at the first offset is right then; a takeover after
 * messages were read resumes after the last one read, which stream-client's offset tracking on the
 * broker would give only as of its last store (every few seconds), delivering the rest twice. Each
 * message's offset is written here with a lazy set, one array slot per partition.
 */
final class ActiveConsumerHandoff {

    private final AtomicLongArray lastRead;

    /** @param lanes the partitions of the super stream, 1 for a plain stream */
    ActiveConsumerHandoff(int lanes) {
        this.lastRead = new AtomicLongArray(lanes);
        for (int i = 0; i < lanes; i++) {
            lastRead.set(i, -1);
        }
    }

    void read(int lane, long offset) {
        lastRead.lazySet(lane, offset);
    }

    /** Where the consumer made active on {@code lane} starts: after the group's last message there, else at the first. */
    OffsetSpecification resumeAt(int lane) {
        long last = lastRead.get(lane);
        return last < 0 ? OffsetSpecification.first() : OffsetSpecification.offset(last + 1);
    }
}
