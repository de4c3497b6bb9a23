package dev.msgbench.rabbit.broker;

import dev.msgbench.core.UserError;
import dev.msgbench.core.security.LocalSecurity;
import dev.msgbench.core.security.Pki;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rabbitmq.conf (new-style, sysctl-like) of a local node: the listener msgbench chooses, a
 * cluster's peers, then the user's --broker-prop lines. Everything else is RabbitMQ's default.
 */
final class RabbitConf {

    static final String MAX_MESSAGE_SIZE = "max_message_size";
    /** RabbitMQ 3.10's default max_message_size (128 MiB). */
    static final long DEFAULT_MAX_MESSAGE_BYTES = 134_217_728L;
    /** The largest max_message_size RabbitMQ 3.10 accepts (512 MiB). */
    static final long LIMIT_MAX_MESSAGE_BYTES = 536_870_912L;

    /** No stream listener: the node runs without the stream plugin. */
    static final int NO_STREAM_PORT = 0;
    /** No MQTT listener: the node runs without the MQTT plugin. */
    static final int NO_MQTT_PORT = 0;

    /** Printable ASCII but space and '#'. */
    private static final String CONF_VALUE = "[!\"$-~]+";

    private RabbitConf() {
    }

    /** Ports and directories differ on every run; a user's value would break the node. */
    static void checkUserProps(Map<String, String> props) {
        for (Map.Entry<String, String> prop : props.entrySet()) {
            String key = prop.getKey();
            if (key.startsWith("listeners.") || key.startsWith("distribution.listener.") || key.startsWith("log.file")
                    || key.equals("log.dir") || key.startsWith("cluster_formation.")
                    || key.startsWith("stream.listeners.") || key.startsWith("stream.advertised_")
                    || key.startsWith("mqtt.listeners.")) {
                throw new UserError("--broker-prop " + key + " cannot be set: msgbench chooses it for every run "
                        + "(ports, log files, cluster peers); remove it");
            }
            if (key.isBlank() || !key.matches("[A-Za-z0-9_.$\\-]+") || prop.getValue() == null
                    || prop.getValue().isBlank() || prop.getValue().contains("\n")) {
                throw new UserError("--broker-prop must be KEY=VALUE on one line, a rabbitmq.conf setting, got '"
                        + key + "=" + prop.getValue() + "'");
            }
        }
    }

    /** A one-node broker's: no peers, no stream listener. */
    static Map<String, String> of(int amqpPort, Map<String, String> userProps, LocalSecurity security) {
        return of("127.0.0.1", amqpPort, List.of(), false, userProps, security);
    }

    /** As {@link #of(String, int, int, int, List, boolean, Map, LocalSecurity)} without stream and MQTT listeners. */
    static Map<String, String> of(String host, int amqpPort, List<String> peerNodes, boolean remoteClients,
                                  Map<String, String> userProps, LocalSecurity security) {
        return of(host, amqpPort, NO_STREAM_PORT, NO_MQTT_PORT, peerNodes, remoteClients, userProps, security);
    }

    /**
     * Our settings first, the user's after them: later lines win in rabbitmq.conf. A secured node
     * has no plain listener at all, so no client can measure it without TLS; its login is not here
     * but in {@link #write}, so that this map can be shown.
     *
     * <p>A cluster's nodes all start together, each listing every node (itself too) for classic
     * config peer discovery: the first to take the discovery lock finds no peer with data and
     * forms the cluster; the others, retrying, join it. Only a node with an empty database looks
     * for peers, so a node restarted on its own data rejoins as the member it was.
     *
     * @param host      the address the AMQP listener binds, and the stream listener
     * @param streamPort the stream plugin's port, which it also advertises with {@code host}: a
     *                   stream client connects to the address a node advertises for a stream's
     *                   leader or replica, by default the machine's host name, which may not
     *                   resolve to an address the node listens on; {@link #NO_STREAM_PORT} for none.
     *                   A secured node's is a TLS listener, and its only stream listener
     * @param mqttPort  the MQTT plugin's port, on {@code host}; {@link #NO_MQTT_PORT} for none. Its
     *                  clients log in as the plugin's default user, guest, which RabbitMQ lets in
     *                  over loopback only, as for AMQP; a secured node's speaks TLS only and takes
     *                  its login only
     * @param peerNodes every node name of the cluster; empty for a single node
     * @param remoteClients true when the clients are on other hosts (--isolate): an open node then
     *                      lets guest log in from them, not from loopback only
     */
    static Map<String, String> of(String host, int amqpPort, int streamPort, int mqttPort, List<String> peerNodes,
                                  boolean remoteClients, Map<String, String> userProps, LocalSecurity security) {
        Map<String, String> conf = new LinkedHashMap<>();
        if (security == null) {
            conf.put("listeners.tcp.default", host + ":" + amqpPort);
        } else {
            Pki pki = security.pki();
            conf.put("listeners.tcp", "none");
            conf.put("listeners.ssl.default", host + ":" + amqpPort);
            conf.put("ssl_options.cacertfile", pki.caFile().toString());
            conf.put("ssl_options.certfile", pki.serverCertFile().toString());
            conf.put("ssl_options.keyfile", pki.serverKeyFile().toString());
            // a client certificate, when one comes, must be the CA's; mutual TLS demands one
            conf.put("ssl_options.verify", "verify_peer");
            conf.put("ssl_options.fail_if_no_peer_cert", Boolean.toString(security.login().mutualTls()));
        }
        if (streamPort != NO_STREAM_PORT && security == null) {
            conf.put("stream.listeners.tcp.1", host + ":" + streamPort);
            conf.put("stream.advertised_host", host);
            conf.put("stream.advertised_port", Integer.toString(streamPort));
        } else if (streamPort != NO_STREAM_PORT) {
            // the plugin's default plain listener (5552, every interface) off; TLS with the shared ssl_options;
            // a TLS connection is told advertised_tls_host, else advertised_host, and advertised_tls_port
            conf.put("stream.listeners.tcp", "none");
            conf.put("stream.listeners.ssl.default", host + ":" + streamPort);
            conf.put("stream.advertised_host", host);
            conf.put("stream.advertised_tls_port", Integer.toString(streamPort));
        }
        if (mqttPort != NO_MQTT_PORT && security == null) {
            conf.put("mqtt.listeners.tcp.default", host + ":" + mqttPort);
        } else if (mqttPort != NO_MQTT_PORT) {
            // TLS with the node's ssl_options, and the node's login: no plain port, no anonymous guest
            conf.put("mqtt.listeners.tcp", "none");
            conf.put("mqtt.listeners.ssl.default", host + ":" + mqttPort);
            conf.put("mqtt.allow_anonymous", "false");
        }
        if (remoteClients && security == null) {
            // the hosts' network is made for this run only; a secured node has its own user instead of guest
            conf.put("loopback_users.guest", "false");
        }
        if (!peerNodes.isEmpty()) {
            conf.put("cluster_formation.peer_discovery_backend", "classic_config");
            for (int i = 0; i < peerNodes.size(); i++) {
                conf.put("cluster_formation.classic_config.nodes." + (i + 1), peerNodes.get(i));
            }
        }
        conf.putAll(userProps);
        return conf;
    }

    /**
     * rabbitmq.conf has no quoting: a value is the rest of its line, trimmed, up to a '#', which
     * starts a comment even inside a value (cuttlefish's grammar).
     */
    private static void checkLoginFits(LocalSecurity security) {
        if (!security.login().user().matches(CONF_VALUE)) {
            throw new UserError("--user: a local RabbitMQ node takes a user name of printable ASCII without spaces or "
                    + "'#', got '" + security.login().user() + "'");
        }
        if (!security.login().password().reveal().matches(CONF_VALUE)) {
            throw new UserError("--password-file: a local RabbitMQ node takes a password of printable ASCII without "
                    + "spaces or '#' (it goes into rabbitmq.conf, which has no quoting)");
        }
    }

    /**
     * Writes {@code conf} to {@code file}, owner-only; a secured node's login comes first: the
     * default user, made when the node first boots, instead of guest. rabbitmq.conf is the one
     * place the password can go without a command line or a log seeing it.
     */
    static void write(Map<String, String> conf, LocalSecurity security, Path file) {
        StringBuilder text = new StringBuilder("# written by msgbench for one run\n");
        if (security != null) {
            checkLoginFits(security);
            text.append("default_user = ").append(security.login().user()).append('\n');
            text.append("default_pass = ").append(security.login().password().reveal()).append('\n');
        }
        conf.forEach((k, v) -> text.append(k).append(" = ").append(v).append('\n'));
        try {
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
