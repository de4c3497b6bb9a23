package dev.msgbench.rabbit.broker;

import dev.msgbench.core.UserError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The rabbitmq.conf (new-style, sysctl-like) of a local node: the listener msgbench chooses, then
 * the user's --broker-prop lines. Everything else is RabbitMQ's default.
 */
final class RabbitConf {

    static final String MAX_MESSAGE_SIZE = "max_message_size";
    /** RabbitMQ 3.10's default max_message_size (128 MiB). */
    static final long DEFAULT_MAX_MESSAGE_BYTES = 134_217_728L;
    /** The largest max_message_size RabbitMQ 3.10 accepts (512 MiB). */
    static final long LIMIT_MAX_MESSAGE_BYTES = 536_870_912L;

    private RabbitConf() {
    }

    /** Ports and directories differ on every run; a user's value would break the node. */
    static void checkUserProps(Map<String, String> props) {
        for (Map.Entry<String, String> prop : props.entrySet()) {
            String key = prop.getKey();
            if (key.startsWith("listeners.") || key.startsWith("distribution.listener.") || key.startsWith("log.file")
                    || key.equals("log.dir")) {
                throw new UserError("--broker-prop " + key + " cannot be set: msgbench chooses it for every run "
                        + "(ports, log files); remove it");
            }
            if (key.isBlank() || !key.matches("[A-Za-z0-9_.$\\-]+") || prop.getValue() == null
                    || prop.getValue().isBlank() || prop.getValue().contains("\n")) {
                throw new UserError("--broker-prop must be KEY=VALUE on one line, a rabbitmq.conf setting, got '"
                        + key + "=" + prop.getValue() + "'");
            }
        }
    }

    /** Our settings first, the user's after them: later lines win in rabbitmq.conf. */
    static Map<String, String> of(int amqpPort, Map<String, String> userProps) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("listeners.tcp.default", "127.0.0.1:" + amqpPort);
        conf.putAll(userProps);
        return conf;
    }

    static void write(Map<String, String> conf, Path file) {
        StringBuilder text = new StringBuilder("# written by msgbench for one run\n");
        conf.forEach((k, v) -> text.append(k).append(" = ").append(v).append('\n'));
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
