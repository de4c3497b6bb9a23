package dev.msgbench.pulsar;

import java.util.List;

import dev.msgbench.core.system.SystemProvider;
import dev.msgbench.core.system.SystemTarget;

/** Apache Pulsar, after the seed systems in --system's list. */
public final class PulsarProvider implements SystemProvider {

    @Override
    public List<SystemTarget> create() {
        return List.of(new PulsarTarget());
    }

    @Override
    public int order() {
        return 60;
    }
}
