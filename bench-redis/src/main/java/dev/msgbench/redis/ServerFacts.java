package dev.msgbench.redis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.msgbench.core.UserError;
import dev.msgbench.redis.resp.Resp;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.RedisAsyncCommands;

/**
 * What the server says about itself, read once per run before anything is sent: version,
 * replication, persistence and size limits, as in effect (CONFIG GET), not as we asked for them.
 *
 * @param config the CONFIG GET values; empty when the server refuses CONFIG (some managed services)
 */
record ServerFacts(String url, String version, String role, int connectedReplicas, Map<String, String> config) {

    static final long DEFAULT_PROTO_MAX_BULK_LEN = 512L * 1024 * 1024;
    static final String[] CONFIG_KEYS = {"appendonly", "appendfsync", "save", "min-replicas-to-write",
            "min-replicas-max-lag", "maxmemory", "maxmemory-policy", "proto-max-bulk-len", "client-query-buffer-limit",
            "client-output-buffer-limit"};
    private static final long TIMEOUT_SECONDS = 10;

    static ServerFacts read(String url, RedisAsyncCommands<byte[], byte[]> admin) throws InterruptedException {
        String server = await(admin.info("server"), "INFO server");
        String replication = await(admin.info("replication"), "INFO replication");
        Map<String, String> config = new LinkedHashMap<>();
        for (String key : CONFIG_KEYS) {
            // one key per call: CONFIG GET with several keys needs Redis 7, and a refusal names the key
            try {
                config.putAll(await(admin.configGet(key), "CONFIG GET " + key));
            } catch (UserError e) {
                if (key.equals(CONFIG_KEYS[0])) {
                    break; // CONFIG is disabled or renamed: the limits stay at Redis's defaults, durability "unknown"
                }
                throw e;
            }
        }
        String replicas = Resp.infoField(replication, "connected_slaves");
        return new ServerFacts(url, orUnknown(Resp.infoField(server, "redis_version")),
                orUnknown(Resp.infoField(replication, "role")),
                replicas == null ? 0 : Integer.parseInt(replicas), Map.copyOf(config));
    }

    /** Fails when the server cannot take a message of {@code sizeBytes}, naming the setting to raise. */
    void checkMessageSize(int sizeBytes) {
        long bulk = bytes("proto-max-bulk-len", DEFAULT_PROTO_MAX_BULK_LEN);
        if (sizeBytes > bulk) {
            throw new UserError("--size " + sizeBytes + " B: this Redis accepts strings of at most " + bulk
                    + " bytes (proto-max-bulk-len); raise it: --broker-prop proto-max-bulk-len=" + suggest(sizeBytes)
                    + " for a local broker, CONFIG SET proto-max-bulk-len " + suggest(sizeBytes) + " on a running one");
        }
        long query = bytes("client-query-buffer-limit", 0);
        if (query > 0 && sizeBytes > query) {
            throw new UserError("--size " + sizeBytes + " B: this Redis accepts commands of at most " + query
                    + " bytes (client-query-buffer-limit); raise it: --broker-prop client-query-buffer-limit="
                    + suggest(sizeBytes) + " for a local broker");
        }
    }

    /** The hard limit of client-output-buffer-limit for pub/sub clients, in bytes; 0 = none. */
    long pubsubHardLimit() {
        String limits = config.get("client-output-buffer-limit");
        if (limits == null) {
            return 32L * 1024 * 1024; // Redis's default
        }
        String[] parts = limits.trim().split("\\s+");
        for (int i = 0; i + 1 < parts.length; i++) {
            if (parts[i].equals("pubsub")) {
                return Long.parseLong(parts[i + 1]);
            }
        }
        return 0;
    }

    /** A replica refuses XADD, and its subscribers see only what the primary forwards: measure the primary. */
    void requirePrimary() {
        if (!role.equals("master")) {
            throw new UserError("--url: the Redis at " + url + " is a replica (role:" + role
                    + "); point --url at its primary");
        }
    }

    void requireReplicasFor(RedisAcks acks) {
        if (acks == RedisAcks.REPLICAS && connectedReplicas == 0) {
            throw new UserError("--acks all: the Redis at " + url + " has no connected replicas (INFO replication "
                    + "connected_slaves:0), so there is nothing to WAIT for; use --acks 1, or a local broker with --brokers 2");
        }
    }

    /** The durability settings every Redis run records, as the server reports them. */
    Map<String, Object> durability(RedisAcks acks, String acknowledgement) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("acks", acks.flagValue());
        d.put("acknowledgement", acknowledgement);
        d.put("appendonly", config.getOrDefault("appendonly", "unknown"));
        d.put("appendfsync", config.getOrDefault("appendfsync", "unknown"));
        String save = config.getOrDefault("save", "unknown");
        d.put("save", save.isEmpty() ? "\"\" (no RDB snapshots)" : save);
        d.put("replicas", connectedReplicas);
        d.put("replication", connectedReplicas == 0 ? "none" : "asynchronous"
                + (acks == RedisAcks.REPLICAS ? " (WAIT for all " + connectedReplicas + " after each message)" : ""));
        d.put("min-replicas-to-write", config.getOrDefault("min-replicas-to-write", "unknown"));
        d.put("serverVersion", version);
        return d;
    }

    /** Settings that do not decide durability but explain results. */
    Map<String, Object> settings() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("url", url);
        s.put("role", role);
        for (String key : new String[] {"proto-max-bulk-len", "client-query-buffer-limit", "client-output-buffer-limit",
                "maxmemory", "maxmemory-policy"}) {
            s.put(key, config.getOrDefault(key, "unknown"));
        }
        return s;
    }

    private long bytes(String key, long fallback) {
        String value = config.get(key);
        return value == null ? fallback : Long.parseLong(value.trim());
    }

    /** Twice the message, at least 1mb (Redis's minimum for proto-max-bulk-len), in whole MiB. */
    private static String suggest(int sizeBytes) {
        long mb = Math.max(1, (2L * sizeBytes + (1 << 20) - 1) >> 20);
        return mb + "mb";
    }

    private static String orUnknown(String value) {
        return value == null ? "unknown" : value;
    }

    static <T> T await(RedisFuture<T> future, String what) throws InterruptedException {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new UserError("redis refused " + what + ": " + cause.getMessage(), cause);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new UserError("redis did not answer " + what + " within " + TIMEOUT_SECONDS + " s", e);
        }
    }
}
