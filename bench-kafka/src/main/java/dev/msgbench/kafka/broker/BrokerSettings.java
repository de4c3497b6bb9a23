package dev.msgbench.kafka.broker;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;

import org.apache.kafka.common.config.ConfigDef;

/**
 * Kafka's broker setting definitions ({@code AbstractKafkaConfig.CONFIG_DEF}), for checking
 * {@code --broker-prop} before a broker starts. They live in the server's jars, which the runner
 * does not carry; they are read from the broker's class path ({@link LocalKafkaCluster#CLASS_PATH}).
 */
public final class BrokerSettings {

    private static final String CONFIG_CLASS = "org.apache.kafka.server.config.AbstractKafkaConfig";

    /** Loaded once per JVM; guarded by the class. */
    private static ConfigDef definitions;

    private BrokerSettings() {
    }

    /** @throws dev.msgbench.core.UserError when the broker's jars are missing and cannot be downloaded */
    public static synchronized ConfigDef definitions() {
        if (definitions == null) {
            definitions = load(LocalKafkaCluster.CLASS_PATH.jars());
        }
        return definitions;
    }

    /*
     * Parent first, with this JVM's loader as the parent: ConfigDef and the rest of kafka-clients
     * come from the runner, so the definitions are objects KafkaProps reads directly, and the
     * broker's jars add only the server's classes (its kafka-clients is the same kafka.version).
     * The loader is never closed: a validator may load a class when it runs.
     */
    static ConfigDef load(List<Path> jars) {
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = jars.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("not a jar's path: " + jars.get(i), e);
            }
        }
        ClassLoader server = new URLClassLoader("kafka-broker-settings", urls, BrokerSettings.class.getClassLoader());
        try {
            return (ConfigDef) Class.forName(CONFIG_CLASS, true, server).getField("CONFIG_DEF").get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + CONFIG_CLASS + ".CONFIG_DEF from " + jars, e);
        }
    }
}
