package dev.msgbench.core.driver;

import java.util.Map;

/**
 * What a result must say about the system it measured.
 *
 * @param system        the name given to --system
 * @param clientVersion the client library and its version
 * @param brokerVersion the server's version as it reports it, or "unknown"
 * @param durability    every setting that decides whether an acknowledged message survives a
 *                      crash (acks, replication, fsync, persistence, confirms), as in effect
 * @param settings      everything else that was set, including pass-through client properties
 * @param acknowledges  whether publishers report broker acknowledgements for this configuration
 */
public record SystemInfo(String system, String clientVersion, String brokerVersion,
                         Map<String, Object> durability, Map<String, Object> settings, boolean acknowledges) {
}
