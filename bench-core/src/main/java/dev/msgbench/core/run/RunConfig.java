package dev.msgbench.core.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

import dev.msgbench.core.payload.PayloadHeader;
import dev.msgbench.core.time.Arrival;

/**
 * Everything the engine needs to run one measurement. Checked by the command line first (with
 * the flag names); the checks here catch programming errors.
 *
 * @param command        the command that asked for the run ("e2e"), recorded in the result
 * @param rateMsgsPerSec the target rate of all producer streams together
 * @param warmup         scheduled and sent like the rest, excluded from the results
 * @param drainTimeout   how long to wait after the last send for outstanding messages
 * @param readyTimeout   how long subscribers may take to be ready
 * @param outputDir      where result files go; created if missing
 * @param progress       print a live line each second
 * @param broker         how the broker was obtained (local or given), recorded in the result
 */
public record RunConfig(String command, String systemName, double rateMsgsPerSec, int messageSizeBytes,
                        Duration warmup, Duration duration, int producers, int consumers, Arrival arrival,
                        long seed, Duration drainTimeout, Duration readyTimeout, Path outputDir,
                        boolean progress, Map<String, Object> broker) {

    public RunConfig {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(systemName, "systemName");
        Objects.requireNonNull(arrival, "arrival");
        Objects.requireNonNull(outputDir, "outputDir");
        broker = Map.copyOf(broker);
        if (!(rateMsgsPerSec > 0) || Double.isInfinite(rateMsgsPerSec)) {
            throw new IllegalArgumentException("rate must be positive and finite: " + rateMsgsPerSec);
        }
        if (messageSizeBytes < PayloadHeader.BYTES) {
            throw new IllegalArgumentException("message size below the header size: " + messageSizeBytes);
        }
        if (warmup.isNegative() || duration.isNegative() || duration.isZero() || drainTimeout.isNegative() || readyTimeout.isNegative() || readyTimeout.isZero()) {
            throw new IllegalArgumentException("durations: warmup >= 0, duration > 0, drain >= 0, ready > 0");
        }
        if (producers < 1 || consumers < 0) {
            throw new IllegalArgumentException("producers >= 1 and consumers >= 0");
        }
    }

    /** Messages the schedule holds in the measured part of the run (after warm-up). */
    public double expectedMeasuredMessages() {
        return rateMsgsPerSec * duration.toNanos() / 1e9;
    }
}
