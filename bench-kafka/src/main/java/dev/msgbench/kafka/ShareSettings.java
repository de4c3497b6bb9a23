package dev.msgbench.kafka;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;

import dev.msgbench.core.UserError;

/**
 * How the run's consumers read, where it is not a consumer group: a share group, and how often a
 * consumer gives a record back so that the broker delivers it again.
 *
 * @param kind         the consumer kind (--kafka-consumer)
 * @param releaseEvery a share consumer RELEASEs every Nth record it sees for the first time (its
 *                     delivery count 1) instead of accepting it, so that the broker redelivers it; 0
 *                     never (--share-release-every)
 */
public record ShareSettings(ConsumerKind kind, int releaseEvery) {

    /** ShareConsumerConfig's SHARE_GROUP_UNSUPPORTED_CONFIGS in kafka-clients 4.3: a KafkaShareConsumer given one fails. */
    private static final List<String> REFUSED_CONSUMER_PROPS = List.of("auto.offset.reset", "enable.auto.commit",
            "group.instance.id", "isolation.level", "partition.assignment.strategy", "interceptor.classes",
            "session.timeout.ms", "heartbeat.interval.ms", "group.protocol", "group.remote.assignor");

    /** A consumer group, as every run before share groups. */
    public static final ShareSettings GROUP = new ShareSettings(ConsumerKind.GROUP, 0);

    public ShareSettings {
        if (kind == null || releaseEvery < 0 || kind == ConsumerKind.GROUP && releaseEvery != 0) {
            throw new IllegalArgumentException("a kind, and a release interval >= 0 for a share group only");
        }
    }

    public boolean share() {
        return kind == ConsumerKind.SHARE;
    }

    /**
     * The consumer flags as given, against what a share consumer takes: only a consumer group commits,
     * reads in an isolation level or takes the group's properties.
     *
     * @param transactions   --transactions, null when not given (as {@code isolationLevel}, {@code commit})
     * @throws UserError naming the flag, the rule and the value
     */
    static void check(ConsumerKind kind, int releaseEvery, String transactions, String isolationLevel, CommitMode commit,
                      Map<String, String> consumerProps) {
        if (releaseEvery < 0) {
            throw new UserError("--share-release-every must be 0 (never) or more, got " + releaseEvery);
        }
        if (kind != ConsumerKind.SHARE) {
            if (releaseEvery != 0) {
                throw new UserError("--share-release-every applies to --kafka-consumer share only, not group; add "
                        + "--kafka-consumer share");
            }
            return;
        }
        if (transactions != null || isolationLevel != null) {
            throw new UserError((transactions != null ? "--transactions" : "--isolation-level") + " applies to "
                    + "--kafka-consumer group only: a share group's isolation is a group setting "
                    + "(share.isolation.level) the suite does not set; give --kafka-consumer group");
        }
        if (commit != null) {
            throw new UserError("--commit applies to --kafka-consumer group only: a share consumer acknowledges each "
                    + "record instead, got --commit " + commit.label());
        }
        if (consumerProps.containsKey(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG)) {
            throw new UserError("--consumer-prop " + ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG + " is the suite's "
                    + "with --kafka-consumer share: each record is acknowledged explicitly (ACCEPT, or RELEASE with "
                    + "--share-release-every); remove it");
        }
        for (String key : consumerProps.keySet()) {
            if (REFUSED_CONSUMER_PROPS.contains(key)) {
                throw new UserError("--consumer-prop " + key + " applies to --kafka-consumer group only: a share consumer "
                        + "refuses it (its group starts at the earliest offset of the run's topic, and the broker assigns "
                        + "partitions)");
            }
        }
    }
}
