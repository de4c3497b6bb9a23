package dev.msgbench.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.ShareMemberDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

import dev.msgbench.core.UserError;

/**
 * The share groups of a run, through the admin client: each starts at the earliest offset of its
 * new topic, and is ready once every consumer of it is a member and every partition is assigned.
 */
final class ShareGroups {

    /**
     * A share group starts at the latest offset unless told otherwise, and only once its first
     * member fetches: a message sent before would be skipped, which a run would count as lost.
     */
    static final String AUTO_OFFSET_RESET = "share.auto.offset.reset";
    /** The feature that turns share groups on (KIP-932), finalized by the cluster. */
    static final String FEATURE = "share.version";

    private final Admin admin;
    private final Duration timeout;

    ShareGroups(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    /**
     * The cluster's finalized share.version, at least 1, or a one-line error: share groups are on by
     * default from Kafka 4.2 in a cluster whose storage was formatted at its metadata version or later
     * (the suite's local brokers are), and must be enabled by hand in one upgraded from before.
     */
    short requireFeature(String bootstrapServers) throws Exception {
        FinalizedVersionRange level = admin.describeFeatures().featureMetadata()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS).finalizedFeatures().get(FEATURE);
        if (level == null || level.maxVersionLevel() < 1) {
            throw new UserError("--kafka-consumer share: the Kafka cluster at " + bootstrapServers + " has no share groups ("
                    + FEATURE + " " + (level == null ? "not finalized" : "level " + level.maxVersionLevel()) + "); they "
                    + "need Kafka 4.2 or later, enabled with kafka-features.sh upgrade --feature " + FEATURE + "=1");
        }
        return level.maxVersionLevel();
    }

    /** Makes each group read its topic from the start, before any of its consumers subscribes. */
    void startAtEarliest(Collection<String> groups) throws Exception {
        Map<ConfigResource, Collection<AlterConfigOp>> ops = new LinkedHashMap<>();
        for (String group : groups) {
            ops.put(new ConfigResource(ConfigResource.Type.GROUP, group),
                    List.of(new AlterConfigOp(new ConfigEntry(AUTO_OFFSET_RESET, "earliest"), AlterConfigOp.OpType.SET)));
        }
        admin.incrementalAlterConfigs(ops).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Whether {@code group} has {@code members} members or more and every partition of its topic is assigned
     * to one of them (a share group may assign a partition to several); false while the broker does
     * not know the group yet.
     */
    boolean ready(String group, int members, int partitions) {
        try {
            ShareGroupDescription description = admin.describeShareGroups(List.of(group)).describedGroups().get(group)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            // more than this process's: other workers' consumers of the same group (--workers)
            if (description.members().size() < members) {
                return false;
            }
            Set<TopicPartition> assigned = new HashSet<>();
            for (ShareMemberDescription member : description.members()) {
                assigned.addAll(member.assignment().topicPartitions());
            }
            return assigned.size() == partitions;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            // not known yet, or the coordinator is moving: asked again
            return false;
        }
    }
}
