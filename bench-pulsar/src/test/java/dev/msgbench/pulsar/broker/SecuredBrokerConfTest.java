package dev.msgbench.pulsar.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.msgbench.core.UserError;
import dev.msgbench.core.broker.BrokerSpec;
import dev.msgbench.core.net.Placement;
import dev.msgbench.core.security.BrokerSecurity;
import dev.msgbench.core.security.LocalSecurity;
import dev.msgbench.core.security.Secret;

/** What a standalone started with --secure is given, written and read back without a broker. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SecuredBrokerConfTest {

    private static final String PASSWORD = "conf-Leak-Check-5Rt1";

    @TempDir
    Path dir;

    @Test
    void theWrittenConfOpensOnlyTlsPortsDemandsALoginAndHoldsNoPassword() throws IOException {
        LocalSecurity security = security(new BrokerSecurity("msgbench", Secret.of(PASSWORD), false));
        Path htpasswd = security.pki().dir().resolve(SecuredBrokerConf.HTPASSWD);
        SecuredBrokerConf.writeHtpasswd(htpasswd, security.login());
        Path conf = dir.resolve("standalone.conf");
        TokenKey tokenKey = TokenKey.create(security.pki().dir(), "msgbench");

        StandaloneConf.write(conf, "127.0.0.1", 6651, 8443,
                SecuredBrokerConf.settings(security, htpasswd, tokenKey, 6651, 8443), Map.of("journalSyncData", "false"));

        List<String> lines = Files.readAllLines(conf, StandardCharsets.UTF_8);
        for (String line : List.of("brokerServicePort=", "brokerServicePortTls=6651", "webServicePort=",
                "webServicePortTls=8443", "tlsCertificateFilePath=" + security.pki().serverCertFile(),
                "tlsKeyFilePath=" + security.pki().serverKeyFile(), "tlsTrustCertsFilePath=" + security.pki().caFile(),
                "authenticationEnabled=true",
                "authenticationProviders=org.apache.pulsar.broker.authentication.AuthenticationProviderBasic,"
                        + "org.apache.pulsar.broker.authentication.AuthenticationProviderToken,"
                        + "org.apache.pulsar.broker.authentication.AuthenticationProviderTls",
                "basicAuthConf=" + htpasswd, "tokenSecretKey=file://" + security.pki().dir().resolve("token-secret.key"), "authorizationEnabled=false", "superUserRoles=msgbench",
                "brokerClientTlsEnabled=true",
                "brokerClientAuthenticationPlugin=org.apache.pulsar.client.impl.auth.AuthenticationTls",
                "brokerClientAuthenticationParameters={\"tlsCertFile\":\"" + security.pki().clientCertFile()
                        + "\",\"tlsKeyFile\":\"" + security.pki().clientKeyFile() + "\"}",
                "journalSyncData=false")) {
            assertTrue(lines.contains(line), line + " in " + lines);
        }
        assertEquals(1, lines.stream().filter(l -> l.startsWith("brokerServicePort=")).count(), "one plain port, empty");
        assertFalse(Files.readString(conf).contains(PASSWORD));
        assertFalse(Files.readString(conf).contains(tokenKey.token().reveal()), "the broker reads the key, not the token");
    }

    @Test
    void theTokenIsAnHs256JwtForTheUserSignedWithTheKeyBothInOwnerOnlyFiles() throws Exception {
        TokenKey tokenKey = TokenKey.create(dir, "bench-user");

        String[] parts = tokenKey.token().reveal().split("\\.");
        assertEquals(3, parts.length, "header.claims.signature");
        java.util.Base64.Decoder url = java.util.Base64.getUrlDecoder();
        assertEquals("{\"alg\":\"HS256\"}", new String(url.decode(parts[0]), StandardCharsets.UTF_8));
        assertEquals("{\"sub\":\"bench-user\"}", new String(url.decode(parts[1]), StandardCharsets.UTF_8));
        byte[] key = Files.readAllBytes(dir.resolve("token-secret.key"));
        assertEquals(32, key.length, "256 bits, as HS256 wants");
        assertEquals(hmacSha256Hex(key, parts[0] + "." + parts[1]), java.util.HexFormat.of().formatHex(url.decode(parts[2])),
                "the signature openssl computes with the key");
        assertEquals(tokenKey.token().reveal(), Files.readString(tokenKey.tokenFile(), StandardCharsets.UTF_8));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenKey.tokenFile())));
        assertEquals("rw-------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve("token-secret.key"))));
    }

    @Test
    void theHtpasswdFileHoldsTheApr1HashOfThePasswordForTheOwnerOnly() throws Exception {
        LocalSecurity security = security(new BrokerSecurity("bench-user", Secret.of(PASSWORD), false));
        Path htpasswd = security.pki().dir().resolve(SecuredBrokerConf.HTPASSWD);

        SecuredBrokerConf.writeHtpasswd(htpasswd, security.login());

        String line = Files.readString(htpasswd, StandardCharsets.UTF_8);
        assertTrue(line.matches("bench-user:\\$apr1\\$[./0-9A-Za-z]{1,8}\\$[./0-9A-Za-z]{22}\n"), line);
        String hash = line.substring("bench-user:".length()).strip();
        String salt = hash.split("\\$")[2];
        assertEquals(hash, apr1(PASSWORD, salt), "the hash AuthenticationProviderBasic checks the password against");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(htpasswd)));
    }

    @Test
    void aUserWithAColonCannotBeAnHtpasswdLine() {
        BrokerSecurity login = new BrokerSecurity("a:b", Secret.of(PASSWORD), false);

        UserError refused = assertThrows(UserError.class,
                () -> SecuredBrokerConf.writeHtpasswd(dir.resolve(SecuredBrokerConf.HTPASSWD), login));

        assertEquals("--secure: a Pulsar login's user has no ':' and neither user nor password a line break; the user "
                + "is 'a:b'", refused.getMessage());
    }

    @Test
    void theResultRecordsTheSecuritySettingsWithoutPathsOrPorts() {
        Map<String, String> effective = StandaloneConf.effective(SecuredBrokerConf.recorded(true), Map.of());

        assertEquals("true", effective.get("authenticationEnabled"));
        assertEquals("true", effective.get("tlsRequireTrustedClientCertOnConnect"));
        assertFalse(effective.containsKey("basicAuthConf"));
        assertFalse(effective.containsKey("brokerServicePortTls"));
        assertFalse(effective.containsKey("tlsKeyFilePath"));
    }

    @Test
    void aSecuredClustersBrokerConfOpensOnlyTlsPortsAndItsBookieConfNoneOfIt() throws IOException {
        SecuredPulsar secured = SecuredPulsar.create(Files.createDirectories(dir.resolve("tls")),
                new BrokerSecurity("msgbench", Secret.of(PASSWORD), false), Placement.LOOPBACK);
        Path broker = dir.resolve("broker.conf");
        Path bookie = dir.resolve("bookkeeper.conf");

        ClusterConf.writeBroker(broker, "127.0.0.1", "127.0.0.1:2181", 6651, 8443, secured.brokerSettings(6651, 8443),
                Map.of());
        ClusterConf.writeBookie(bookie, "127.0.0.1", false, "127.0.0.1:2181", 3181, dir.resolve("bookie"), Map.of());

        List<String> lines = Files.readAllLines(broker, StandardCharsets.UTF_8);
        for (String line : List.of("brokerServicePort=", "brokerServicePortTls=6651", "webServicePort=",
                "webServicePortTls=8443", "authenticationEnabled=true", "brokerClientTlsEnabled=true",
                "brokerClientAuthenticationPlugin=org.apache.pulsar.client.impl.auth.AuthenticationTls",
                "managedLedgerDefaultEnsembleSize=3")) {
            assertTrue(lines.contains(line), line + " in " + lines);
        }
        assertEquals(1, lines.stream().filter(l -> l.startsWith("brokerServicePort=")).count(), "one plain port, empty");
        String bookieConf = Files.readString(bookie);
        assertFalse(bookieConf.contains("tls") || bookieConf.contains("authentication"), bookieConf);
        for (Path file : List.of(broker, bookie)) {
            assertFalse(Files.readString(file).contains(PASSWORD), file.toString());
        }
        assertEquals("TLS, user msgbench, password", secured.client(PulsarLogin.BASIC).toString());
        assertEquals("TLS, token", secured.client(PulsarLogin.TOKEN).toString());
        Map<String, String> recorded = ClusterConf.effective(SecuredBrokerConf.recorded(false), Map.of());
        assertEquals("true", recorded.get("authenticationEnabled"));
        assertFalse(recorded.containsKey("basicAuthConf"), "no paths in the result");
    }

    private LocalSecurity security(BrokerSecurity login) {
        return LocalSecurity.create(dir.resolve("tls"), login, Placement.LOOPBACK);
    }

    /** HMAC-SHA256 of {@code text} with {@code key}, in hex, by openssl: not the code under test. */
    private static String hmacSha256Hex(byte[] key, String text) throws Exception {
        Process openssl = new ProcessBuilder("openssl", "dgst", "-sha256", "-mac", "HMAC", "-macopt",
                "hexkey:" + java.util.HexFormat.of().formatHex(key)).redirectErrorStream(true).start();
        try (var stdin = openssl.getOutputStream()) {
            stdin.write(text.getBytes(StandardCharsets.US_ASCII));
        }
        String out = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(openssl.waitFor(30, TimeUnit.SECONDS));
        return out.substring(out.lastIndexOf(' ') + 1);
    }

    /** What Apache's htpasswd -m and AuthenticationProviderBasic compute, by openssl. */
    private static String apr1(String password, String salt) throws Exception {
        Process openssl = new ProcessBuilder("openssl", "passwd", "-apr1", "-salt", salt, "-stdin")
                .redirectErrorStream(true).start();
        try (var stdin = openssl.getOutputStream()) {
            stdin.write((password + "\n").getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(openssl.waitFor(30, TimeUnit.SECONDS));
        return out;
    }
}
