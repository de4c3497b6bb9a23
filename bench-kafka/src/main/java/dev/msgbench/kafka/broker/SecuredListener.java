package dev.msgbench.kafka.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.LocalSecurity;
import dev.msgbench.kafka.KafkaClientSecurity;

/**
 * The client listener of a secured local cluster: SASL_SSL with the throwaway certificate, and
 * the login as SCRAM-SHA-512, SCRAM-SHA-256 or PLAIN, whichever the client picks.
 *
 * <p>Only clients are secured. The brokers talk to each other (INTERNAL) and to the controllers
 * (CONTROLLER) in plaintext without a login, on 127.0.0.1 only: nothing outside this machine
 * reaches them, and a secured inter-broker link would measure a cost no client pays.
 *
 * <p>The password is only in the server.properties of each node, inside the cluster's owner-only
 * temp dir: PLAIN checks it against the JAAS line's {@code user_NAME} entry (Kafka logs listener
 * JAAS settings as [hidden] or not at all), and SCRAM against the credential the cluster creates
 * through the internal listener once it runs ({@link LocalKafkaCluster}), so the password is
 * never an argument of a process.
 */
record SecuredListener(LocalSecurity security, Path keystoreFile) {

    static final String NAME = "CLIENT";
    static final String INTERNAL = "INTERNAL";

    /**
     * Writes {@code keystoreFile}: Kafka's file-based PEM keystore wants the private key and the
     * certificate chain in one file.
     */
    static SecuredListener create(LocalSecurity security, Path keystoreFile) {
        try {
            String key = Files.readString(security.pki().serverKeyFile(), StandardCharsets.US_ASCII);
            String chain = Files.readString(security.pki().serverCertFile(), StandardCharsets.US_ASCII);
            Files.createFile(keystoreFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(keystoreFile, key + (key.endsWith("\n") ? "" : "\n") + chain, StandardCharsets.US_ASCII,
                    StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + keystoreFile, e);
        }
        return new SecuredListener(security, keystoreFile);
    }

    String listenerName() {
        return NAME;
    }

    Map<String, String> serverProps() {
        String prefix = "listener.name." + NAME.toLowerCase() + ".";
        Map<String, String> p = new LinkedHashMap<>(summary());
        p.put(prefix + "ssl.keystore.type", "PEM");
        p.put(prefix + "ssl.keystore.location", keystoreFile.toAbsolutePath().toString());
        p.put(prefix + "ssl.truststore.type", "PEM");
        p.put(prefix + "ssl.truststore.location", security.pki().caFile().toAbsolutePath().toString());
        String scram = "org.apache.kafka.common.security.scram.ScramLoginModule required;";
        p.put(prefix + "scram-sha-512.sasl.jaas.config", scram);
        p.put(prefix + "scram-sha-256.sasl.jaas.config", scram);
        p.put(prefix + "plain.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required user_"
                + security.login().user() + "=\"" + KafkaClientSecurity.quoted(security.login().password().reveal()) + "\";");
        return p;
    }

    /** What results may record: no paths, no JAAS line. */
    Map<String, String> summary() {
        return summaryOf(security.login());
    }

    static Map<String, String> summaryOf(BrokerSecurity login) {
        String prefix = "listener.name." + NAME.toLowerCase() + ".";
        Map<String, String> p = new LinkedHashMap<>();
        p.put(prefix + "sasl.enabled.mechanisms", String.join(",", KafkaClientSecurity.MECHANISMS));
        p.put(prefix + "ssl.client.auth", login.mutualTls() ? "required" : "none");
        return p;
    }
}
