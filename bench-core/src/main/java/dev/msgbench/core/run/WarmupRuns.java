package dev.msgbench.core.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.result.Throughput;

/**
 * How the measured run's result.json and summary describe the warm-up runs made before it
 * ({@code --warmup-messages}): enough to see that they ran whole and how fast, over all of them
 * and one by one, with each one's own result in the folder named here.
 */
final class WarmupRuns {

    private WarmupRuns() {
    }

    /** Over all the runs, in their order: counts added up, rates over their messages and seconds together. */
    static Map<String, Object> describe(List<RunResult> warmups) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("folder", RunSpec.WARMUP_FOLDER);
        m.put("status", warmups.stream().map(RunResult::status).filter(s -> s != RunStatus.COMPLETE).findFirst()
                .orElse(RunStatus.COMPLETE).name().toLowerCase(Locale.ROOT));
        m.put("sent", warmups.stream().mapToLong(w -> w.counts().sent()).sum());
        m.put("received", warmups.stream().mapToLong(w -> w.counts().received()).sum());
        m.put("lost", warmups.stream().mapToLong(w -> w.counts().lost()).sum());
        m.put("publisherMsgsPerSec", overAll(warmups, Throughput::sent, Throughput::publishSeconds));
        m.put("consumerMsgsPerSec", overAll(warmups, Throughput::received, Throughput::consumeSeconds));
        List<Map<String, Object>> runs = new ArrayList<>();
        for (int k = 0; k < warmups.size(); k++) {
            runs.add(describeOne(RunSpec.WARMUP_FOLDER + "/" + (k + 1), warmups.get(k)));
        }
        m.put("runs", runs);
        return m;
    }

    private static Map<String, Object> describeOne(String folder, RunResult warmup) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("folder", folder);
        m.put("status", warmup.status().name().toLowerCase(Locale.ROOT));
        m.put("sent", warmup.counts().sent());
        m.put("received", warmup.counts().received());
        m.put("lost", warmup.counts().lost());
        Throughput t = warmup.throughput();
        m.put("publisherMsgsPerSec", t == null ? null : t.publisherMsgsPerSec());
        m.put("consumerMsgsPerSec", t == null ? null : t.consumerMsgsPerSec());
        return m;
    }

    /**
     * All the runs' messages over all their seconds: never an average of rates. Null when a run has
     * no rate.
     */
    private static Double overAll(List<RunResult> warmups, ToLongFunction<Throughput> messagesOf,
                                  ToDoubleFunction<Throughput> secondsOf) {
        long messages = 0;
        double seconds = 0;
        for (RunResult w : warmups) {
            Throughput t = w.throughput();
            if (t == null) {
                return null;
            }
            messages += messagesOf.applyAsLong(t);
            seconds += secondsOf.applyAsDouble(t);
        }
        return seconds > 0 ? messages / seconds : null;
    }
}
