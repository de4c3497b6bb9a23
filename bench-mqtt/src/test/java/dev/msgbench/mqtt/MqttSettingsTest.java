package dev.msgbench.mqtt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;

import javax.net.ssl.SSLHandshakeException;

import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttSecurityException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.Secret;
import dev.msgbench.core.security.TlsFiles;

/** How a client reaches the broker: Paho's scheme, TLS, the login, and the one line when it is refused. */
class MqttSettingsTest {

    private static final String PASSWORD = "settings-Secret-3";

    @TempDir
    Path dir;

    @Test
    void mqttsAndSslMeanTlsAndMqttIsPahosTcpUnlessACaIsGiven() throws Exception {
        assertEquals("tcp://127.0.0.1:1883", settings("mqtt://127.0.0.1:1883", ClientSecurity.NONE).pahoUrl());
        assertEquals("tcp://127.0.0.1:1883", settings("tcp://127.0.0.1:1883", ClientSecurity.NONE).pahoUrl());
        assertEquals("ssl://127.0.0.1:8883", settings("mqtts://127.0.0.1:8883", ClientSecurity.NONE).pahoUrl());
        assertEquals("ssl://127.0.0.1:8883", settings("ssl://127.0.0.1:8883", ClientSecurity.NONE).pahoUrl());
        ClientSecurity ca = ClientSecurity.NONE.withTls(new TlsFiles(Files.writeString(dir.resolve("ca.pem"), ""),
                null, null));
        assertEquals("ssl://127.0.0.1:8883", settings("mqtt://127.0.0.1:8883", ca).pahoUrl());
        assertEquals("ws://127.0.0.1:80", settings("ws://127.0.0.1:80", ClientSecurity.NONE).pahoUrl(),
                "what Paho takes as is");
    }

    @Test
    void theLoginGoesIntoTheConnectOptionsAndTlsGetsASocketFactory() {
        ClientSecurity login = ClientSecurity.NONE.withLogin("bench-user", Secret.of(PASSWORD));
        var options = MqttClients.options(settings("mqtts://127.0.0.1:8883", login), MqttSession.CLEAN, 10);

        assertEquals("bench-user", options.getUserName());
        assertEquals(PASSWORD, new String(options.getPassword()));
        assertFalse(options.getSocketFactory() == null, "TLS");
        assertEquals(null, MqttClients.options(settings("mqtt://127.0.0.1:1883", ClientSecurity.NONE),
                MqttSession.CLEAN, 10).getSocketFactory());
    }

    @Test
    void aRefusedLoginNamesUserAndPasswordFileAndNotThePassword() {
        ClientSecurity login = ClientSecurity.NONE.withLogin("bench-user", Secret.of(PASSWORD));
        String message = MqttClients.failure(settings("mqtts://127.0.0.1:8883", login), "run-check",
                new MqttSecurityException(MqttException.REASON_CODE_NOT_AUTHORIZED)).getMessage();

        assertEquals("--user: the MQTT broker at mqtts://127.0.0.1:8883 refused the login of user 'bench-user' (Not "
                + "authorized to connect (5)); check --user and --password-file", message);
    }

    @Test
    void anUntrustedCertificateNamesCa() {
        MqttException e = new MqttException(MqttException.REASON_CODE_SERVER_CONNECT_ERROR,
                new SSLHandshakeException("PKIX path building failed"));
        e.getCause().initCause(new IllegalStateException("unable to find valid certification path to requested target"));

        assertEquals("--ca: the TLS certificate of the MQTT broker at mqtts://127.0.0.1:8883 is not trusted (unable to "
                + "find valid certification path to requested target); give the authority that signed it with --ca "
                + "FILE (PEM)", MqttClients.failure(settings("mqtts://127.0.0.1:8883", ClientSecurity.NONE), "c", e)
                .getMessage());
    }

    private static MqttSettings settings(String url, ClientSecurity security) {
        return new MqttSettings(url, 1, MqttSession.CLEAN, "unknown", null, MqttBroker.MOSQUITTO, null, security);
    }
}
