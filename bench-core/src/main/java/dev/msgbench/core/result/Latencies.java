package dev.msgbench.core.result;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The measured distributions in ms, each keyed as {@link Percentiles#inMillis} keys them; empty
 * when nothing was measured.
 *
 * @param latency   receive time minus intended send time: what a user waits, free of coordinated omission
 * @param service   receive time minus actual send time, for diagnosis only
 * @param sendDelay actual minus intended send time
 * @param ack       acknowledgement minus intended send time; empty where nothing is acknowledged
 * @param commit    a transaction's commit, once per transaction, as the driver times it (Kafka: commitTransaction's
 *                  call to its return); null where the run commits no transactions
 */
public record Latencies(Map<String, Double> latency, Map<String, Double> service, Map<String, Double> sendDelay,
                        Map<String, Double> ack, @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Double> commit) {

    /** Without transactions, as results written before commits were timed. */
    public Latencies(Map<String, Double> latency, Map<String, Double> service, Map<String, Double> sendDelay,
                     Map<String, Double> ack) {
        this(latency, service, sendDelay, ack, null);
    }
}
