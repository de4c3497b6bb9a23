package dev.msgbench.core.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import dev.msgbench.core.net.Placement;

/**
 * Makes a {@link Pki} for one local broker with openssl (installed with every Debian, and by
 * ./scripts/setup): EC P-256 keys, valid for two days, nothing downloaded. The files live in the
 * broker's temporary folder and go with it; the folder and the keys are the owner's only.
 */
public final class ThrowawayPki {

    private static final String DAYS = "2";

    private ThrowawayPki() {
    }

    /**
     * Creates the CA and certificates in {@code dir} (made if missing, mode 700).
     *
     * @param placement where the broker's nodes listen: the server certificate names their addresses
     */
    public static Pki create(Path dir, Placement placement) {
        try {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            Path ca = dir.resolve("ca.pem");
            Path caKey = dir.resolve("ca.key");
            openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", caKey.toString(), "-out", ca.toString(), "-days", DAYS, "-subj", "/CN=msgbench throwaway CA",
                    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
            Path serverCert = dir.resolve("server.pem");
            Path serverKey = dir.resolve("server.key");
            signed(dir, ca, caKey, "server", serverCert, serverKey, "localhost",
                    "subjectAltName=" + serverNames(placement) + "\nextendedKeyUsage=serverAuth,clientAuth\n");
            Path clientCert = dir.resolve("client.pem");
            Path clientKey = dir.resolve("client.key");
            signed(dir, ca, caKey, "client", clientCert, clientKey, "msgbench",
                    "extendedKeyUsage=clientAuth\n");
            for (Path key : List.of(caKey, serverKey, clientKey)) {
                Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
            }
            Files.deleteIfExists(dir.resolve("server.csr"));
            Files.deleteIfExists(dir.resolve("client.csr"));
            return new Pki(dir, ca, serverCert, serverKey, clientCert, clientKey);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the throwaway certificates in " + dir, e);
        }
    }

    /**
     * Loopback, and under --isolate every node host's address: one certificate serves every node
     * of the broker, and a client checks the name of the address it dialled.
     */
    static String serverNames(Placement placement) {
        StringBuilder names = new StringBuilder("IP:127.0.0.1,DNS:localhost");
        if (placement.isolated()) {
            placement.hosts().nodes().forEach(n -> names.append(",IP:").append(n.address()));
        }
        return names.toString();
    }

    private static void signed(Path dir, Path ca, Path caKey, String name, Path cert, Path key, String commonName,
                               String extensions) throws IOException {
        Path csr = dir.resolve(name + ".csr");
        Path ext = dir.resolve(name + ".ext");
        Files.writeString(ext, extensions, StandardCharsets.US_ASCII);
        openssl(dir, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key.toString(), "-out", csr.toString(), "-subj", "/CN=" + commonName);
        openssl(dir, "x509", "-req", "-in", csr.toString(), "-CA", ca.toString(), "-CAkey", caKey.toString(),
                "-CAcreateserial", "-out", cert.toString(), "-days", DAYS, "-extfile", ext.toString());
        Files.delete(ext);
    }

    private static void openssl(Path dir, String... args) throws IOException {
        Openssl.run(dir, null, "a throwaway certificate", args);
    }
}
