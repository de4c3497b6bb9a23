package dev.msgbench.mqtt.broker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;

/**
 * What local Mosquitto to start.
 *
 * @param broker what every local broker has: one node only (Mosquitto has no cluster); its props
 *               are mosquitto.conf lines ({@code persistence=true} is {@code persistence true}),
 *               written after ours, so that they win; its log dir holds mosquitto-1.log; its start
 *               timeout covers starting and the ready check (default 30 s)
 * @param binary the mosquitto program; null: search the PATH, then /usr/sbin and /usr/bin
 */
public record MosquittoBrokerSpec(BrokerSpec broker, Path binary) {

    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);

    /** The listener, paths and the process's user differ on every start; a user value would break them. */
    static final Set<String> RESERVED = Set.of("listener", "port", "bind_address", "bind_interface",
            "persistence_location", "persistence_file", "log_dest", "pid_file", "user", "include_dir",
            "allow_anonymous", "password_file", "acl_file", "per_listener_settings");

    /** What --secure writes for the listener; a user's value would replace the throwaway certificate. */
    static final Set<String> SECURED = Set.of("cafile", "capath", "certfile", "keyfile", "require_certificate",
            "use_identity_as_username", "use_subject_as_username", "psk_hint", "psk_file");

    public MosquittoBrokerSpec {
        broker = Objects.requireNonNull(broker, "broker").withDefaultStartTimeout(DEFAULT_START_TIMEOUT);
        if (broker.nodes() != 1) {
            throw new UserError(noCluster(broker.nodes()));
        }
        for (Map.Entry<String, String> prop : broker.props().entrySet()) {
            String key = prop.getKey();
            if (RESERVED.contains(key.toLowerCase(Locale.ROOT))) {
                throw new UserError("--broker-prop " + key + " cannot be set: msgbench chooses it for every start "
                        + "(the listener, directories, logs and the process's user); remove it");
            }
            if (broker.security() != null && SECURED.contains(key.toLowerCase(Locale.ROOT))) {
                throw new UserError("--broker-prop " + key + " cannot be set with --secure: msgbench configures the "
                        + "listener's TLS and login for it; remove it");
            }
            if (!key.matches("[a-z][a-z0-9_]*") || prop.getValue() == null || prop.getValue().contains("\n")) {
                throw new UserError("--broker-prop must be KEY=VALUE with a mosquitto.conf setting as KEY "
                        + "(persistence=true), got '" + key + "'");
            }
        }
    }

    /** The one line for --brokers above 1, shared with the command line's early check. */
    public static String noCluster(int nodes) {
        return "--brokers " + nodes + ": Mosquitto has no cluster, a local MQTT broker is one node; give --brokers 1";
    }

    /** {@code broker} with mosquitto from the PATH. */
    public static MosquittoBrokerSpec of(BrokerSpec broker) {
        return new MosquittoBrokerSpec(broker, null);
    }

    /** One node, no overrides, logs in the temp dir, 30 s to start, mosquitto from the PATH. */
    public static MosquittoBrokerSpec defaults() {
        return of(BrokerSpec.defaults());
    }

    public MosquittoBrokerSpec withBinary(Path binary) {
        return new MosquittoBrokerSpec(broker, binary);
    }
}
