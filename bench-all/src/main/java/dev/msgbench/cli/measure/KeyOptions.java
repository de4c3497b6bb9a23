package dev.msgbench.cli.measure;

import dev.msgbench.core.payload.RecordKeys;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Record keys: whether each message carries a key, and how keys are drawn. */
public final class KeyOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--keys", paramLabel = "none|round-robin|random|zipf:S", defaultValue = "none",
            description = "A record key for each message, drawn per producer stream with --seed: in turn over "
                    + "--key-count keys, uniformly at random, or Zipf with exponent S (k0 the most frequent). Kafka "
                    + "sends it as the record's key, so partitions follow its hash; NATS and JetStream publish on a "
                    + "subject per key; RabbitMQ routes it as the routing key of a topic exchange, Redis publishes on a channel per key "
                    + "(read with PSUBSCRIBE), Redis Streams writes it as a field; --pattern echo "
                    + "refuses it (default: ${DEFAULT-VALUE}).")
    String keys;

    @Option(names = "--key-count", paramLabel = "N",
            description = "How many different keys --keys draws from (default: " + RecordKeys.DEFAULT_COUNT + ").")
    Integer keyCount;

    private RecordKeys parsed = RecordKeys.NONE;

    void validate() {
        int count = keyCount == null ? RecordKeys.DEFAULT_COUNT : keyCount;
        if (count < 1) {
            throw new ParameterException(spec.commandLine(), "--key-count must be at least 1, got " + count);
        }
        try {
            parsed = RecordKeys.parse(keys, count);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--keys: " + e.getMessage());
        }
        if (parsed.isNone() && keyCount != null) {
            throw new ParameterException(spec.commandLine(), "--key-count " + keyCount + " needs --keys round-robin, "
                    + "random or zipf:S (got --keys " + keys + ")");
        }
    }

    /** Valid after {@link #validate}. */
    public RecordKeys recordKeys() {
        return parsed;
    }
}
