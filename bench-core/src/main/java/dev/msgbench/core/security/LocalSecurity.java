package dev.msgbench.core.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import dev.msgbench.core.net.Placement;

/**
 * A secured local broker's side of the bargain, made in its temporary folder: the certificates,
 * the login it demands, and a password file (owner-only) that `broker --secure` names instead of
 * printing the password.
 */
public record LocalSecurity(Pki pki, BrokerSecurity login, Path passwordFile) {

    /**
     * Makes the certificates and the password file in {@code dir}.
     *
     * @param placement where the broker's nodes listen, so that the certificate names their addresses
     */
    public static LocalSecurity create(Path dir, BrokerSecurity login, Placement placement) {
        Pki pki = ThrowawayPki.create(dir, placement);
        Path passwordFile = dir.resolve("password");
        try {
            Files.writeString(passwordFile, login.password().reveal(), StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + passwordFile, e);
        }
        return new LocalSecurity(pki, login, passwordFile);
    }

    /**
     * What a client of this broker uses: TLS with the CA, the login, and the client certificate
     * only where the broker demands one (so the results say mutual TLS only where it is).
     */
    public ClientSecurity client() {
        TlsFiles tls = login.mutualTls() ? pki.clientTls() : new TlsFiles(pki.caFile(), null, null);
        return new ClientSecurity(tls, login.user(), login.password(), null);
    }
}
