package dev.msgbench.core.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

import dev.msgbench.core.UserError;
import dev.msgbench.core.net.IsolatedHosts;
import dev.msgbench.core.net.LinkShaping;
import dev.msgbench.core.net.NetHost;
import dev.msgbench.core.net.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Real TLS handshakes on loopback between contexts built from the throwaway CA's PEM files. */
@Timeout(60)
class ThrowawayPkiTest {

    @TempDir
    Path dir;

    @Test
    void theFolderAndEveryKeyAreReadableByTheOwnerOnly() throws IOException {
        Pki pki = ThrowawayPki.create(dir.resolve("tls"), Placement.LOOPBACK);

        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(pki.dir())));
        for (Path key : new Path[] {pki.serverKeyFile(), pki.clientKeyFile(), pki.dir().resolve("ca.key")}) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)), key.toString());
        }
    }

    @Test
    void onLoopbackTheServerCertificateNamesLoopbackOnly() throws Exception {
        Pki pki = ThrowawayPki.create(dir, Placement.LOOPBACK);

        assertEquals(List.of("127.0.0.1", "localhost"), serverNames(pki));
    }

    @Test
    void underIsolationTheServerCertificateNamesEveryNodeHostOfThePlacementGiven() throws Exception {
        IsolatedHosts hosts = new IsolatedHosts("msgbench-sw", "10.77.12.0/24",
                new NetHost("client", "msgbench-c", "10.77.12.100", "sw-c"),
                List.of(new NetHost("node 1", "msgbench-n1", "10.77.12.1", "sw-n1"),
                        new NetHost("node 2", "msgbench-n2", "10.77.12.2", "sw-n2")), LinkShaping.NONE);

        Pki pki = ThrowawayPki.create(dir, new Placement(hosts));

        assertEquals(List.of("127.0.0.1", "localhost", "10.77.12.1", "10.77.12.2"), serverNames(pki));
    }

    @Test
    void aClientTrustingTheCaCompletesAMutualHandshakeWithTheServerCertificate() throws Exception {
        Pki pki = ThrowawayPki.create(dir, Placement.LOOPBACK);
        SSLContext server = new TlsFiles(pki.caFile(), pki.serverCertFile(), pki.serverKeyFile()).sslContext();

        assertEquals("CN=msgbench", handshake(server, true, pki.clientTls().sslContext()));
    }

    @Test
    void aServerDemandingAClientCertificateRefusesAClientWithout() throws Exception {
        Pki pki = ThrowawayPki.create(dir, Placement.LOOPBACK);
        SSLContext server = new TlsFiles(pki.caFile(), pki.serverCertFile(), pki.serverKeyFile()).sslContext();

        assertThrows(IOException.class,
                () -> handshake(server, true, new TlsFiles(pki.caFile(), null, null).sslContext()));
    }

    @Test
    void aClientTrustingOnlyTheJvmsAuthoritiesRefusesTheThrowawayCertificate() throws Exception {
        Pki pki = ThrowawayPki.create(dir, Placement.LOOPBACK);
        SSLContext server = new TlsFiles(pki.caFile(), pki.serverCertFile(), pki.serverKeyFile()).sslContext();

        assertThrows(SSLException.class, () -> handshake(server, false, TlsFiles.DEFAULT_TRUST.sslContext()));
    }

    @Test
    void aKeyInAnOlderFormIsRefusedWithTheCommandThatConvertsIt() throws IOException {
        Pki pki = ThrowawayPki.create(dir, Placement.LOOPBACK);
        Path rsa = dir.resolve("old.key");
        Files.writeString(rsa, "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n");

        UserError e = assertThrows(UserError.class,
                () -> new TlsFiles(pki.caFile(), pki.clientCertFile(), rsa).sslContext());
        assertEquals("client-key: " + rsa + " is not an unencrypted PKCS#8 PEM key (\"-----BEGIN PRIVATE KEY-----\"); "
                + "convert it with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8", e.getMessage());
    }

    @Test
    void aMissingFileIsNamedWithItsSetting() {
        UserError e = assertThrows(UserError.class, () -> new TlsFiles(dir.resolve("nope.pem"), null, null));
        assertEquals("ca: cannot read " + dir.resolve("nope.pem") + " (no such file)", e.getMessage());
        e = assertThrows(UserError.class, () -> new TlsFiles(null, dir.resolve("c.pem"), null));
        assertEquals("client-cert needs client-key (the private key of the certificate)", e.getMessage());
    }

    /** The server certificate's subject alternative names, in order: its IP addresses and DNS names. */
    private static List<String> serverNames(Pki pki) throws Exception {
        try (InputStream in = Files.newInputStream(pki.serverCertFile())) {
            X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            return cert.getSubjectAlternativeNames().stream().map(name -> (String) name.get(1)).toList();
        }
    }

    /** The subject of the certificate the client presented, as the server saw it ("" for none). */
    private static String handshake(SSLContext server, boolean needClientAuth, SSLContext client) throws Exception {
        try (SSLServerSocket listener = (SSLServerSocket) server.getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            listener.setNeedClientAuth(needClientAuth);
            CompletableFuture<String> seen = CompletableFuture.supplyAsync(() -> {
                try (SSLSocket accepted = (SSLSocket) listener.accept()) {
                    accepted.startHandshake();
                    return needClientAuth ? accepted.getSession().getPeerPrincipal().getName() : "";
                } catch (IOException e) {
                    return "refused: " + e;
                }
            });
            try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", listener.getLocalPort())) {
                socket.startHandshake();
                // TLS 1.3 reports a refused client certificate on the first read
                socket.getOutputStream().write(1);
                socket.getOutputStream().flush();
                socket.setSoTimeout(10_000);
                socket.getInputStream().read();
            }
            String subject = seen.get(30, TimeUnit.SECONDS);
            assertTrue(!subject.startsWith("refused"), subject);
            return subject;
        }
    }
}
