package dev.msgbench.core.run;

import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

import dev.msgbench.core.analysis.SecondStats;
import dev.msgbench.core.cpu.CpuContention;
import dev.msgbench.core.driver.BrokerBytes;
import dev.msgbench.core.driver.DeliveryPromise;
import dev.msgbench.core.driver.SystemInfo;
import dev.msgbench.core.fault.FaultReport;
import dev.msgbench.core.record.Accounting;
import dev.msgbench.core.record.HistogramKind;
import dev.msgbench.core.result.BacklogFigures;

/**
 * What one run observed, handed from the run to the building of its result.
 *
 * @param delivery          what the system promised of order and copies, read after the run
 * @param sends             what the producer streams did, added up
 * @param ends              when the last things of each kind happened, on the run's clock
 * @param measured          the measured part of each histogram the run recorded (those with a
 *                          value are written as .hgrm files)
 * @param firstSendError    the first publish the system failed, or null
 * @param subscriberErrors  how many subscriber errors were reported, the first of them in
 *                          {@code firstSubscriberError}
 * @param failure           why the run failed, or null
 * @param drained           false when the drain timed out with messages still missing
 * @param faults            the run's faults (--fault) and what the run saw after each
 * @param measuredSeconds   the measured window second by second, without the drain after it
 * @param backlog           the backlog and its drain (--backlog), or null
 * @param cpu               the CPUs' use over the measured window, judged; null where they were not watched
 * @param brokerBytes       what the broker counted of the run's destinations once its clients closed; null where
 *                          the system reports none or it could not be read
 * @param brokerBytesError  why the broker's counter could not be read, on one line; null otherwise
 * @param abortedDeliveryHint why consumers may receive messages the system aborted on purpose, or null where a
 *                          delivery of one is a fault ({@link dev.msgbench.core.driver.MessagingSystem#abortedDeliveryHint})
 */
record RunObservation(SystemInfo info, String lossHint, DeliveryPromise delivery, String startedAt, RunWindow window,
                      Accounting accounting, SendTotals sends, Ends ends, Map<HistogramKind, Histogram> measured,
                      Throwable firstSendError, Throwable firstSubscriberError, long subscriberErrors, Throwable failure,
                      boolean interrupted,
                      boolean drained, Map<String, Object> generatorUsage, List<FaultReport> faults,
                      List<SecondStats> measuredSeconds, BacklogFigures backlog, CpuContention cpu,
                      BrokerBytes brokerBytes, String brokerBytesError, String abortedDeliveryHint) {

    boolean stoppedEarly() {
        return interrupted || failure != null;
    }

    Histogram measured(HistogramKind kind) {
        return measured.get(kind);
    }

    /**
     * @param measuredSent          messages sent whose intended time is in the measured window
     * @param unsent                scheduled messages never sent
     * @param lastMeasuredSendNanos when the last measured message went out (the measured start if none did)
     * @param maxBehindNanos        the furthest any stream fell behind its schedule
     * @param sentBytes             bytes of every message sent, warm-up included
     * @param measuredSizes         sizes of the measured messages sent; null when all have the run's one size
     */
    record SendTotals(long measuredSent, long unsent, long lastMeasuredSendNanos, long maxBehindNanos, long sentBytes,
                      Histogram measuredSizes) {
    }

    /**
     * @param consumeStartNanos when consumers started (consuming after producing), else the run's start
     * @param flushedNanos      when every publisher's flush returned: the server then had every message sent
     * @param receivedBytes     bytes of every message received (each once, warm-up included)
     * @param firstReceiveNanos the first delivery, consuming after producing; else (or with nothing
     *                          delivered) {@link Long#MIN_VALUE}
     */
    record Ends(long lastReceiveNanos, long lastAckNanos, long flushedNanos, long consumeStartNanos, long receivedBytes,
                long firstReceiveNanos) {
    }
}
