package dev.msgbench.mqtt.broker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.msgbench.core.security.LocalSecurity;
import dev.msgbench.core.security.Pki;

/**
 * The mosquitto.conf the suite writes for its node. Mosquitto has no command that reports its
 * configuration, so what a result records about it is read from here: these settings, as written.
 *
 * <p>Ours first, then --broker-prop, which wins: {@code persistence} is Mosquitto's default (off:
 * a restart keeps nothing, not even persistent sessions); {@code autosave_interval} is its default
 * too (1800 s), written out so that the figure a result records is the one in effect, and so is
 * {@code autosave_on_changes} (off: the interval counts seconds, not changes);
 * {@code max_queued_messages 0} lifts its default of 1000 messages queued per client, beyond which
 * Mosquitto drops QoS 1 and 2 messages for a subscriber that is behind, which a throughput run is
 * by design.
 */
final class MosquittoConfig {

    static final Map<String, String> DEFAULTS = defaults();

    private final Map<String, String> settings;

    MosquittoConfig(Map<String, String> brokerProps) {
        Map<String, String> merged = new LinkedHashMap<>(DEFAULTS);
        brokerProps.forEach((key, value) -> merged.put(key.toLowerCase(java.util.Locale.ROOT), value));
        this.settings = Collections.unmodifiableMap(merged);
    }

    /** Our settings and --broker-prop, without the listener and paths. */
    Map<String, String> settings() {
        return settings;
    }

    /** An open node's lines: {@link #lines(String, int, Path, String, LocalSecurity, Path)} without security. */
    List<String> lines(String address, int port, Path dataDir, String user) {
        return lines(address, port, dataDir, user, null, null);
    }

    /**
     * The file's lines: the listener on {@code address:port}, data and log places, then
     * {@link #settings}. A secured node's one listener speaks TLS with the throwaway certificate
     * and takes only the login of {@code passwordFile} (hashed there, {@link MosquittoPasswordFile}).
     *
     * @param security the certificates and login of a secured node; null: an open listener
     */
    List<String> lines(String address, int port, Path dataDir, String user, LocalSecurity security,
                       Path passwordFile) {
        List<String> lines = new ArrayList<>();
        lines.add("listener " + port + " " + address);
        if (security == null) {
            // an open loopback listener, as every local broker the suite starts without --secure
            lines.add("allow_anonymous true");
        } else {
            Pki pki = security.pki();
            lines.add("cafile " + pki.caFile());
            lines.add("certfile " + pki.serverCertFile());
            lines.add("keyfile " + pki.serverKeyFile());
            lines.add("require_certificate " + security.login().mutualTls());
            lines.add("allow_anonymous false");
            lines.add("password_file " + passwordFile);
        }
        lines.addAll(List.of(
                "persistence_location " + dataDir + "/",
                // stdout is the node's log file (NativeCommand)
                "log_dest stdout",
                "log_type error",
                "log_type warning",
                "log_type notice",
                "log_type information",
                // as root, Mosquitto would switch to the user mosquitto, which cannot write the temp dir
                "user " + user));
        settings.forEach((key, value) -> lines.add(key + " " + value));
        return lines;
    }

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("persistence", "false");
        d.put("autosave_interval", "1800");
        d.put("autosave_on_changes", "false");
        d.put("max_queued_messages", "0");
        return Collections.unmodifiableMap(d);
    }
}
