package dev.msgbench.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

import dev.msgbench.core.UserError;
import dev.msgbench.kafka.broker.BrokerSettings;

/**
 * Properties passed through to Kafka (--producer-prop, --consumer-prop, --broker-prop), checked
 * against Kafka's own definitions before anything starts, so that linger.ms=abc is one line
 * instead of a stack trace from inside the client (or a broker that fails to format its storage).
 *
 * <p>A value Kafka would refuse is refused. A key Kafka does not define is only warned about,
 * as Kafka itself does ("supplied but are not used yet"): plugins such as interceptors and
 * partitioners read keys of their own.
 */
public enum KafkaProps {

    PRODUCER("--producer-prop", "producer", ProducerConfig::configDef),
    CONSUMER("--consumer-prop", "consumer", ConsumerConfig::configDef),
    /** The broker's definitions live in its own jars, not the runner's; read only when --broker-prop is given. */
    BROKER("--broker-prop", "broker", BrokerSettings::definitions);

    private final String flag;
    private final String role;
    private final Supplier<ConfigDef> definitions;

    KafkaProps(String flag, String role, Supplier<ConfigDef> definitions) {
        this.flag = flag;
        this.role = role;
        this.definitions = definitions;
    }

    /**
     * @return a warning for each key Kafka does not define
     * @throws UserError naming the flag, key, value and Kafka's rule, for the first value Kafka refuses
     */
    public List<String> check(Map<String, String> props) {
        List<String> warnings = new ArrayList<>();
        if (props.isEmpty()) {
            return warnings;
        }
        Map<String, ConfigDef.ConfigKey> keys = definitions.get().configKeys();
        for (Map.Entry<String, String> prop : props.entrySet()) {
            ConfigDef.ConfigKey key = keys.get(prop.getKey());
            if (key == null) {
                warnings.add(flag + " " + prop.getKey() + " is not a Kafka " + role + " setting; Kafka ignores it "
                        + "unless a plugin reads it (check the spelling)");
                continue;
            }
            requireValid(key, prop.getValue());
        }
        return warnings;
    }

    private void requireValid(ConfigDef.ConfigKey key, String value) {
        try {
            Object parsed = ConfigDef.parseType(key.name, value, key.type);
            if (key.validator != null) {
                key.validator.ensureValid(key.name, parsed);
            }
        } catch (ConfigException e) {
            String shown = key.type == ConfigDef.Type.PASSWORD ? "(hidden)" : value;
            throw new UserError(flag + " " + key.name + "=" + shown + ": " + rule(e, key) + " (Kafka's rule for "
                    + key.name + ")", e);
        }
    }

    /** Kafka's reason without its "Invalid value X for configuration K:" prefix, which the line already says. */
    private static String rule(ConfigException e, ConfigDef.ConfigKey key) {
        String message = String.valueOf(e.getMessage());
        String marker = "for configuration " + key.name;
        int at = message.indexOf(marker);
        String reason = at < 0 ? message : message.substring(at + marker.length()).replaceFirst("^\\s*:\\s*", "");
        if (reason.isBlank()) {
            return "Kafka refuses this value";
        }
        return Character.toLowerCase(reason.charAt(0)) + reason.substring(1).replaceAll("\\s*\\R\\s*", " ");
    }
}
