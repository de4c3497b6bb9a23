package dev.msgbench.mqtt;

import java.util.Properties;

import javax.net.ssl.SSLException;

import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

import dev.msgbench.core.UserError;

/** Paho clients made alike for every publisher and subscriber of a run. */
final class MqttClients {

    /** Waits of the suite's own requests: connect, subscribe, disconnect. */
    static final long TIMEOUT_MILLIS = 30_000;
    private static final int KEEP_ALIVE_SECONDS = 60;

    private MqttClients() {
    }

    /**
     * A client connected with {@code session}'s clean-session flag; state kept in memory (Paho's
     * default is a file per client in the working directory).
     *
     * @param maxInflight QoS 1 and 2 messages Paho lets wait for their acknowledgement
     */
    static MqttAsyncClient connect(MqttSettings settings, String clientId, MqttSession session, int maxInflight)
            throws MqttException {
        MqttAsyncClient client = new MqttAsyncClient(settings.pahoUrl(), clientId, new MemoryPersistence());
        try {
            connect(client, settings, session, maxInflight);
            return client;
        } catch (RuntimeException e) {
            client.close(true);
            throw e;
        }
    }

    /** Connects {@code client}, made by the caller (a subscriber sets its callback first). */
    static void connect(MqttAsyncClient client, MqttSettings settings, MqttSession session, int maxInflight) {
        try {
            client.connect(options(settings, session, maxInflight)).waitForCompletion(TIMEOUT_MILLIS);
        } catch (MqttException e) {
            throw failure(settings, client.getClientId(), e);
        }
    }

    /** A refused login names --user, an untrusted certificate --ca; anything else says what Paho reported. */
    static UserError failure(MqttSettings settings, String clientId, MqttException e) {
        int code = e.getReasonCode();
        if (code == MqttException.REASON_CODE_FAILED_AUTHENTICATION || code == MqttException.REASON_CODE_NOT_AUTHORIZED) {
            String user = settings.security().user();
            return new UserError("--user: the MQTT broker at " + settings.url() + " refused the login"
                    + (user == null ? " (no --user given)" : " of user '" + user + "'") + " (" + e.getMessage() + " ("
                    + code + ")); check --user and --password-file", e);
        }
        Throwable tls = e.getCause();
        while (tls != null && !(tls instanceof SSLException)) {
            tls = tls.getCause();
        }
        if (tls != null) {
            Throwable root = tls;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            String why = root.getMessage();
            return new UserError(why != null && why.contains("certification path")
                    ? "--ca: the TLS certificate of the MQTT broker at " + settings.url() + " is not trusted (" + why
                            + "); give the authority that signed it with --ca FILE (PEM)"
                    : "--url: the TLS handshake with the MQTT broker at " + settings.url() + " failed (" + why
                            + "); check --ca, --client-cert and --client-key, and that the port speaks TLS", e);
        }
        return new UserError("cannot connect to the MQTT broker at " + settings.url() + " as " + clientId + ": "
                + e.getMessage() + " (" + code + ")", e);
    }

    /**
     * How every client of the run connects, the first time and again after the broker dropped it
     * ({@link Reconnector}): with TLS, Paho checks the certificate's host name against the URL's.
     */
    static MqttConnectOptions options(MqttSettings settings, MqttSession session, int maxInflight) {
        MqttConnectOptions options = new MqttConnectOptions();
        if (settings.usesTls()) {
            options.setSocketFactory(settings.tls().sslContext().getSocketFactory());
            options.setHttpsHostnameVerificationEnabled(true);
        }
        if (settings.security().user() != null) {
            options.setUserName(settings.security().user());
        }
        if (settings.security().password() != null) {
            options.setPassword(settings.security().password().reveal().toCharArray());
        }
        options.setMqttVersion(MqttConnectOptions.MQTT_VERSION_3_1_1);
        options.setCleanSession(session == MqttSession.CLEAN);
        options.setMaxInflight(maxInflight);
        options.setKeepAliveInterval(KEEP_ALIVE_SECONDS);
        options.setAutomaticReconnect(false);
        options.setConnectionTimeout((int) (TIMEOUT_MILLIS / 1000));
        return options;
    }

    /** Disconnects and releases the client's threads. */
    static void close(MqttAsyncClient client) throws MqttException {
        try {
            if (client.isConnected()) {
                client.disconnect(0).waitForCompletion(TIMEOUT_MILLIS);
            }
        } finally {
            client.close(true);
        }
    }

    /**
     * Ends the session the broker keeps for {@code clientId}: a clean connect discards it, so a
     * persistent session leaves nothing queued on a broker given with --url.
     */
    static void discardSession(MqttSettings settings, String clientId) throws MqttException {
        close(connect(settings, clientId, MqttSession.CLEAN, 1));
    }

    /** Paho's version, from its jar. */
    static String clientVersion() {
        try (var in = MqttAsyncClient.class.getResourceAsStream(
                "/META-INF/maven/org.eclipse.paho/org.eclipse.paho.client.mqttv3/pom.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return "Eclipse Paho MQTT v3 client " + p.getProperty("version", "unknown");
        } catch (java.io.IOException e) {
            return "Eclipse Paho MQTT v3 client unknown";
        }
    }
}
