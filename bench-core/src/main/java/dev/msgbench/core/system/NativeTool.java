package dev.msgbench.core.system;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A system's own load generator, which scripts/compare-native runs beside the suite's
 * {@code throughput} with matching settings (Kafka's ProducerPerformance, RabbitMQ's PerfTest,
 * nats-bench, redis-benchmark): where it comes from, how to run it for each side, how to read its
 * figure, and what the comparison compares. The module that knows the system knows its tool;
 * bench-all's {@code native-tool} command runs it and the script only orchestrates, so a new
 * system brings its tool along with its target ({@link SystemTarget#nativeTool}).
 *
 * <p>Each tool counts differently: {@link #compared} says which figure of the tool is set beside
 * which of ours, and the flags of ours that make the settings match are {@link #matchingFlags}.
 */
public interface NativeTool {

    /** The tool as its makers name it: "ProducerPerformance and ConsumerPerformance". */
    String name();

    /** What is fetched or built, and from where, in one line: "org.apache.kafka:kafka-tools 4.3.1 from Maven Central". */
    String origin();

    /** Settings a user may change for the comparison, read from {@link NativeRequest#knob}. */
    default List<Knob> knobs() {
        return List.of();
    }

    /**
     * The messages of a run when none are given: several seconds of the tool on a small machine,
     * long enough that a JVM's compilation is not most of the run.
     */
    long defaultMessages(long sizeBytes);

    /**
     * Whether both tools can leave a warm-up out of their figure on this side; where one cannot
     * (PerfTest has no warm-up), both run cold.
     */
    default boolean warms(NativeSide side) {
        return false;
    }

    /** Why this side cannot be compared ("redis-benchmark has no Streams reader"), or null when it can. */
    default String sideRefused(NativeSide side) {
        return null;
    }

    /**
     * One sentence: which figure of the tool is set beside which of ours, with the settings that
     * matter, for a cold run; {@link #warmupNote} adds how the warm-up is left out.
     */
    String compared(NativeRequest request);

    /**
     * How this tool leaves a warm-up out, when it does more than run it first: ", ProducerPerformance:
     * --warmup-records, its steady-state line". Empty when there is nothing to add.
     */
    default String warmupNote(NativeRequest request) {
        return "";
    }

    /** The flags of the suite's {@code throughput} that give it this run's settings (ours is given the size and count itself). */
    List<String> matchingFlags(NativeRequest request);

    /**
     * A process that listens on the broker while ours runs this side, as one does in the native run
     * (Redis: a redis-cli subscriber, so that both publishers have the same subscriber); empty for none.
     */
    default List<String> oursListener(NativeRequest request) {
        return List.of();
    }

    /**
     * Fetches or builds the tool once into {@code cacheDir}, or finds it installed.
     *
     * @param progress where to say what takes a while ("resolving ... from Maven Central")
     * @throws dev.msgbench.core.UserError when the tool cannot be had, in one line saying how to get it
     */
    Prepared prepare(Path cacheDir, Consumer<String> progress);

    /** The tool once it is at hand. */
    interface Prepared {

        /** The commands of one run and how to read their figure; refuses a bad knob with a UserError. */
        NativeRun run(NativeRequest request);

        /** Commands to run once against a fresh broker before the comparison's runs on it. */
        default List<NativeRun.Step> brokerSetup(String url) {
            return List.of();
        }
    }

    /**
     * @param name         as given: {@code --knob NAME=VALUE}
     * @param defaultValue when it is not given
     * @param description  one line for {@code native-tool list}
     */
    record Knob(String name, String defaultValue, String description) {

        public Knob {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(defaultValue, "defaultValue");
            Objects.requireNonNull(description, "description");
        }
    }
}
