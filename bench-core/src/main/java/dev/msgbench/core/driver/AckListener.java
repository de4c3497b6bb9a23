package dev.msgbench.core.driver;

/**
 * Where a driver reports the broker's acknowledgement of each published message. The two
 * values are the ones given to {@link Publisher#publish}; the driver carries them back
 * unchanged and never does arithmetic on them. Safe to call from any thread.
 */
public interface AckListener {

    void acked(long sequence, long intendedSendNanos);

    void failed(long sequence, long intendedSendNanos, Throwable error);

    /**
     * The driver aborted the message on purpose (its transaction rolled back, as the run asked):
     * never acknowledged, and not expected by any consumer, so never counted as lost; a delivery of
     * it is counted apart. By default a failure, for listeners that know no aborts.
     */
    default void aborted(long sequence, long intendedSendNanos) {
        failed(sequence, intendedSendNanos, new IllegalStateException("message " + sequence + " aborted on purpose"));
    }

    /**
     * A transaction's commit took {@code commitNanos} (the driver says from what to what); recorded
     * beside the latencies. Once per transaction committed, aborted or failed.
     *
     * @param firstIntendedSendNanos the intended send time of the transaction's first message, unchanged:
     *                               it places the commit in the warm-up or the measured window
     */
    default void committed(long firstIntendedSendNanos, long commitNanos) {
    }
}
