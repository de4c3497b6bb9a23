package dev.msgbench.kafka;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;

import dev.msgbench.core.UserError;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.security.TlsFiles;

/**
 * The client properties that make producers, consumers and the admin client speak TLS and log
 * in: security.protocol from what {@link ClientSecurity} holds (SSL, SASL_SSL, SASL_PLAINTEXT),
 * the PEM files as Kafka reads them, and a JAAS line for SCRAM or PLAIN.
 *
 * <p>The JAAS line and the client's private key are secrets: Kafka logs both as [hidden], and
 * they are registered with {@link Secret} so that nothing the suite prints carries them.
 */
public final class KafkaClientSecurity {

    /** What a login uses unless --sasl-mechanism says otherwise: the strongest Kafka offers for passwords. */
    public static final String DEFAULT_MECHANISM = "SCRAM-SHA-512";
    public static final List<String> MECHANISMS = List.of("SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN");

    private KafkaClientSecurity() {
    }

    /**
     * @param mechanism the SASL mechanism of a login, one of {@link #MECHANISMS}
     * @return nothing for {@link ClientSecurity#NONE}
     * @throws UserError for a login Kafka cannot use (a token, a user without a password)
     */
    public static Map<String, String> props(ClientSecurity security, String mechanism) {
        Map<String, String> p = new LinkedHashMap<>();
        if (security == null || (!security.usesTls() && !security.hasLogin())) {
            return p;
        }
        boolean login = security.hasLogin();
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG,
                security.usesTls() ? (login ? "SASL_SSL" : "SSL") : "SASL_PLAINTEXT");
        if (security.usesTls()) {
            p.putAll(tls(security.tls()));
        }
        if (login) {
            requireMechanism(mechanism);
            p.put(SaslConfigs.SASL_MECHANISM, mechanism);
            p.put(SaslConfigs.SASL_JAAS_CONFIG, jaas(security, mechanism).reveal());
        }
        return p;
    }

    /** Kafka's truststore and keystore of type PEM; a missing CA leaves the JVM's authorities. */
    private static Map<String, String> tls(TlsFiles files) {
        Map<String, String> p = new LinkedHashMap<>();
        if (files.caFile() != null) {
            p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
            p.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, files.caFile().toAbsolutePath().toString());
        }
        if (files.mutual()) {
            // Kafka's file-based PEM keystore wants key and chain in one file; given inline, they can stay apart
            p.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PEM");
            p.put(SslConfigs.SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG, read("--client-cert", files.clientCertFile()));
            p.put(SslConfigs.SSL_KEYSTORE_KEY_CONFIG, Secret.of(read("--client-key", files.clientKeyFile())).reveal());
        }
        return p;
    }

    private static Secret jaas(ClientSecurity security, String mechanism) {
        if (security.token() != null) {
            throw new UserError("kafka logs in with a user and a password (--user and --password-file), not a token");
        }
        if (security.user() == null) {
            throw new UserError("kafka needs --user with the password: SASL " + mechanism + " logs in as a named user");
        }
        if (security.password() == null) {
            throw new UserError("--user " + security.user() + " needs a password for kafka: give --password-file or --password-env");
        }
        String module = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        return Secret.of(module + " required username=\"" + quoted(security.user()) + "\" password=\""
                + quoted(security.password().reveal()) + "\";");
    }

    /** @throws UserError naming --sasl-mechanism for a mechanism this suite does not send */
    public static void requireMechanism(String mechanism) {
        if (!MECHANISMS.contains(mechanism)) {
            throw new UserError("--sasl-mechanism must be one of " + String.join(", ", MECHANISMS) + ", got '"
                    + mechanism + "'");
        }
    }

    /** A JAAS option value in double quotes: a quote or a backslash inside is escaped. */
    public static String quoted(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static String read(String flag, Path file) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UserError(flag + ": cannot read " + file + " (" + e.getClass().getSimpleName() + ")");
        }
    }
}
