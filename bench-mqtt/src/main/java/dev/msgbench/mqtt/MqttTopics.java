package dev.msgbench.mqtt;

import dev.msgbench.core.driver.RunPlan;
import dev.msgbench.core.payload.RecordKeys;

/**
 * The run's MQTT topics: topic {@code t} of the run is the topic {@link RunPlan#topicName}; with
 * record keys, each key is a level under it ({@code <topic>/k17}), which a subscriber reads with
 * the filter {@code <topic>/+}.
 */
final class MqttTopics {

    private final RunPlan plan;
    private final RecordKeys keys;

    MqttTopics(RunPlan plan, RecordKeys keys) {
        this.plan = plan;
        this.keys = keys;
    }

    /** The topic of stream {@code streamId}, or with keys the topic of each key, by key. */
    String[] publishTopics(int streamId) {
        String topic = plan.topicName(plan.topicOf(streamId));
        if (keys.isNone()) {
            return new String[] {topic};
        }
        String[] topics = new String[keys.count()];
        for (int k = 0; k < topics.length; k++) {
            topics[k] = topic + "/" + RecordKeys.name(k);
        }
        return topics;
    }

    /** What consumer {@code index} subscribes to: its topic, or with keys every key level under it. */
    String filterOf(int index) {
        String topic = plan.topicName(plan.topicOfConsumer(index));
        return keys.isNone() ? topic : topic + "/+";
    }

    String describe() {
        String one = plan.topicName(0);
        return plan.topics() + (plan.topics() == 1 ? " topic: " + one : " topics: " + one + " ... "
                + plan.topicName(plan.topics() - 1)) + (keys.isNone() ? "" : ", a level per key under each");
    }
}
