package dev.msgbench.core.loopback;

import java.util.List;

import dev.msgbench.core.system.SystemProvider;
import dev.msgbench.core.system.SystemTarget;

/** The in-JVM loopback, last in every list: the floor under the brokers' figures. */
public final class LoopbackProvider implements SystemProvider {

    @Override
    public List<SystemTarget> create() {
        return List.of(new LoopbackTarget());
    }

    @Override
    public int order() {
        return 1000;
    }
}
