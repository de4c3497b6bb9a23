package dev.msgbench.core.net;

import java.util.Objects;

/**
 * One host of an isolated run: a network namespace with one link to the switch.
 *
 * @param role       "client", or "node K" for broker node K
 * @param namespace  the network namespace, for {@code ip netns exec}
 * @param address    its IPv4 address on the link
 * @param switchPort the link's other end, in the switch namespace: set down, it cuts the host off
 */
public record NetHost(String role, String namespace, String address, String switchPort) {

    public NetHost {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(switchPort, "switchPort");
    }
}
