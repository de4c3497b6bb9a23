package dev.msgbench.core.result;

import java.util.Map;

/**
 * The measured distributions in ms, each keyed as {@link Percentiles#inMillis} keys them; empty
 * when nothing was measured.
 *
 * @param latency   receive time minus intended send time: what a user waits, free of coordinated omission
 * @param service   receive time minus actual send time, for diagnosis only
 * @param sendDelay actual minus intended send time
 * @param ack       acknowledgement minus intended send time; empty where nothing is acknowledged
 */
public record Latencies(Map<String, Double> latency, Map<String, Double> service, Map<String, Double> sendDelay,
                        Map<String, Double> ack) {
}
