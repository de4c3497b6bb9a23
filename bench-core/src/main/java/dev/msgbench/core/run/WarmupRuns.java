package dev.msgbench.core.run;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.Throughput;

/**
 * How the measured run's result.json and summary describe the warm-up run made before it
 * ({@code --warmup-messages}): enough to see that it ran whole and how fast, with its own
 * result in the folder named here.
 */
final class WarmupRuns {

    private WarmupRuns() {
    }

    static Map<String, Object> describe(RunResult warmup) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("folder", RunConfig.WARMUP_FOLDER);
        m.put("status", warmup.status().name().toLowerCase(Locale.ROOT));
        m.put("sent", warmup.counts().sent());
        m.put("received", warmup.counts().received());
        m.put("lost", warmup.counts().lost());
        Throughput t = warmup.throughput();
        m.put("publisherMsgsPerSec", t == null ? null : t.publisherMsgsPerSec());
        m.put("consumerMsgsPerSec", t == null ? null : t.consumerMsgsPerSec());
        return m;
    }
}
