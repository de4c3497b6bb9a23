package dev.msgbench.core.system;

import java.util.List;

/**
 * What a system module offers the runner, found with {@link java.util.ServiceLoader}: a module
 * lists its provider in {@code META-INF/services/dev.msgbench.core.system.SystemProvider}, and
 * the runner knows its systems, their flags, brokers and refusals without naming the module.
 *
 * <p>One provider may offer several systems that share flags or a broker: NATS offers
 * {@code nats} and {@code jetstream}, Redis {@code redis} and {@code redis-streams}.
 */
public interface SystemProvider {

    /**
     * Fresh systems, in the order --help lists them. Each holds the values of its flags, so each
     * command line asks for its own.
     */
    List<SystemTarget> create();

    /**
     * Where this provider's systems come in lists such as --system's: lower first, ties by the
     * provider's class name. The seed systems use 10 to 50 and the in-JVM loopback 1000, so that a
     * new module that does not care goes after the brokers and before the loopback.
     */
    default int order() {
        return 100;
    }
}
