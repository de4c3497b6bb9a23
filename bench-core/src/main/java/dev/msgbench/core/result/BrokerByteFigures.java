package dev.msgbench.core.result;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * result.json's {@code brokerBytes}: the broker's own count of the run's destinations beside the
 * bytes the run sent, and their ratio, what compression saved. A run and a merge of workers (each
 * counts its own destinations: the sums are the run's) write it alike.
 */
public final class BrokerByteFigures {

    private BrokerByteFigures() {
    }

    /**
     * @param counter   which counter of the broker, in words
     * @param bytes     its value
     * @param sentBytes the message bytes the run sent, headers and warm-up included
     * @return {@code counter}, {@code bytes}, {@code sentBytes}, {@code ratio} (to 4 decimals; null when nothing was sent)
     */
    public static Map<String, Object> of(String counter, long bytes, long sentBytes) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("counter", counter);
        m.put("bytes", bytes);
        m.put("sentBytes", sentBytes);
        m.put("ratio", sentBytes == 0 ? null : Math.round(bytes * 10_000.0 / sentBytes) / 10_000.0);
        return m;
    }
}
