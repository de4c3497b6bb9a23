package dev.msgbench.kafka;

import java.util.List;

import dev.msgbench.core.system.SystemProvider;
import dev.msgbench.core.system.SystemTarget;

/** Kafka, and anything that speaks its protocol: the {@code kafka} system. */
public final class KafkaProvider implements SystemProvider {

    @Override
    public List<SystemTarget> create() {
        return List.of(new KafkaTarget());
    }

    @Override
    public int order() {
        return 10;
    }
}
