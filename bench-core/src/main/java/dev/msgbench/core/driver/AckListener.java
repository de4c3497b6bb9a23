package dev.msgbench.core.driver;

/**
 * Where a driver reports the broker's acknowledgement of each published message. The two
 * values are the ones given to {@link Publisher#publish}; the driver carries them back
 * unchanged and never does arithmetic on them. Safe to call from any thread.
 */
public interface AckListener {

    void acked(long sequence, long intendedSendNanos);

    void failed(long sequence, long intendedSendNanos, Throwable error);
}
