package dev.msgbench.core.result;

/**
 * Backlog and drain (--backlog): the consumers were held back until the producers had built a
 * backlog, then released, and read it while the producers went on at their schedule. Times in
 * seconds from the start of sending (the interval log's StartTime).
 *
 * @param backlog                  as asked: "100000 messages" or "1GiB"
 * @param backlogMessages          the messages sent before the release (a size counts the mean message size)
 * @param reached                  whether the producers sent that many; false when sending ended first
 *                                 (the consumers were then released at its end)
 * @param reachedAtSeconds         when the backlog was reached, or sending ended
 * @param releasedAtSeconds        when the consumers began to subscribe (the drain counts from then)
 * @param readyAtSeconds           when every consumer was subscribed and ready (a Kafka group's join takes
 *                                 seconds of the drain); null if never
 * @param deliveriesWaiting        deliveries sent but not received at the release: the backlog read by the drain
 * @param drained                  whether the consumers read the whole backlog before the run ended
 * @param drainedAtSeconds         when the deliveries sent before the release had all been received; null if never
 * @param drainSeconds             from the release to then; null if never
 * @param drainRateMsgsPerSec      deliveries received per second from ready to drained (backlog and new ones);
 *                                 null if never, or drained by the time they were ready
 * @param sendRateDuringDrainMsgsPerSec messages sent per second during the drain
 * @param targetRateMsgsPerSec     what the schedule asked for at the release; null when unpaced
 * @param scheduleKept             whether the producers sent at least 99% of the target during the drain;
 *                                 null when unpaced or never drained
 */
public record BacklogFigures(String backlog, long backlogMessages, boolean reached, double reachedAtSeconds,
                             double releasedAtSeconds, Double readyAtSeconds, long deliveriesWaiting, boolean drained, Double drainedAtSeconds,
                             Double drainSeconds, Double drainRateMsgsPerSec, Double sendRateDuringDrainMsgsPerSec,
                             Double targetRateMsgsPerSec, Boolean scheduleKept) {

    /** How the summary and result.json say what latency means in such a run. */
    public static final String LATENCY_NOTE = "backlog: latency includes the time messages waited in the backlog "
            + "while the consumers were held back (kept in the histograms, nothing dropped); "
            + "the measured window is the whole schedule, backlog and drain included";
}
