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
class SecuredStandaloneConfTest {

    private static final String PASSWORD = "conf-Leak-Check-5Rt1";

    @TempDir
    Path dir;

    @Test
    void theWrittenConfOpensOnlyTlsPortsDemandsALoginAndHoldsNoPassword() throws IOException {
        LocalSecurity security = security(new BrokerSecurity("msgbench", Secret.of(PASSWORD), false));
        Path htpasswd = security.pki().dir().resolve(SecuredStandaloneConf.HTPASSWD);
        SecuredStandaloneConf.writeHtpasswd(htpasswd, security.login());
        Path conf = dir.resolve("standalone.conf");

        StandaloneConf.write(conf, "127.0.0.1", 6651, 8443, SecuredStandaloneConf.settings(security, htpasswd, 6651, 8443),
                Map.of("journalSyncData", "false"));

        List<String> lines = Files.readAllLines(conf, StandardCharsets.UTF_8);
        for (String line : List.of("brokerServicePort=", "brokerServicePortTls=6651", "webServicePort=",
                "webServicePortTls=8443", "tlsCertificateFilePath=" + security.pki().serverCertFile(),
                "tlsKeyFilePath=" + security.pki().serverKeyFile(), "tlsTrustCertsFilePath=" + security.pki().caFile(),
                "authenticationEnabled=true",
                "authenticationProviders=org.apache.pulsar.broker.authentication.AuthenticationProviderBasic,"
                        + "org.apache.pulsar.broker.authentication.AuthenticationProviderTls",
                "basicAuthConf=" + htpasswd, "authorizationEnabled=false", "superUserRoles=msgbench",
                "brokerClientTlsEnabled=true",
                "brokerClientAuthenticationPlugin=org.apache.pulsar.client.impl.auth.AuthenticationTls",
                "brokerClientAuthenticationParameters={\"tlsCertFile\":\"" + security.pki().clientCertFile()
                        + "\",\"tlsKeyFile\":\"" + security.pki().clientKeyFile() + "\"}",
                "journalSyncData=false")) {
            assertTrue(lines.contains(line), line + " in " + lines);
        }
        assertEquals(1, lines.stream().filter(l -> l.startsWith("brokerServicePort=")).count(), "one plain port, empty");
        assertFalse(Files.readString(conf).contains(PASSWORD));
    }

    @Test
    void theHtpasswdFileHoldsTheApr1HashOfThePasswordForTheOwnerOnly() throws Exception {
        LocalSecurity security = security(new BrokerSecurity("bench-user", Secret.of(PASSWORD), false));
        Path htpasswd = security.pki().dir().resolve(SecuredStandaloneConf.HTPASSWD);

        SecuredStandaloneConf.writeHtpasswd(htpasswd, security.login());

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
                () -> SecuredStandaloneConf.writeHtpasswd(dir.resolve(SecuredStandaloneConf.HTPASSWD), login));

        assertEquals("--secure: a Pulsar login's user has no ':' and neither user nor password a line break; the user "
                + "is 'a:b'", refused.getMessage());
    }

    @Test
    void theResultRecordsTheSecuritySettingsWithoutPathsOrPorts() {
        Map<String, String> effective = StandaloneConf.effective(SecuredStandaloneConf.recorded(true), Map.of());

        assertEquals("true", effective.get("authenticationEnabled"));
        assertEquals("true", effective.get("tlsRequireTrustedClientCertOnConnect"));
        assertFalse(effective.containsKey("basicAuthConf"));
        assertFalse(effective.containsKey("brokerServicePortTls"));
        assertFalse(effective.containsKey("tlsKeyFilePath"));
    }

    @Test
    void aSecuredClusterIsRefusedBeforeAnythingStarts() {
        PulsarBrokerSpec spec = PulsarBrokerSpec.of(BrokerSpec.defaults().withNodes(3)
                .withSecurity(BrokerSecurity.generated()));

        UserError refused = assertThrows(UserError.class, () -> LocalPulsarCluster.start(spec, dir));

        assertEquals("--secure: a local Pulsar cluster (--brokers 3) starts open for now; secure a standalone "
                + "(--brokers 1), or measure a secured cluster with --url pulsar+ssl://HOST:6651", refused.getMessage());
        assertEquals(List.of(), List.of(dir.toFile().list()), "no temp dir made");
    }

    private LocalSecurity security(BrokerSecurity login) {
        return LocalSecurity.create(dir.resolve("tls"), login, Placement.LOOPBACK);
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
