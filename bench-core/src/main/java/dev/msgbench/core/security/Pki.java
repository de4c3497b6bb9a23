package dev.msgbench.core.security;

import java.nio.file.Path;

/**
 * The PEM files of a throwaway certificate authority: the CA, a server certificate for loopback
 * (127.0.0.1 and localhost) and a client certificate, all signed by the CA; keys unencrypted
 * PKCS#8, readable by the owner only.
 */
public record Pki(Path dir, Path caFile, Path serverCertFile, Path serverKeyFile, Path clientCertFile,
                  Path clientKeyFile) {

    /** What a client of this CA trusts and presents. */
    public TlsFiles clientTls() {
        return new TlsFiles(caFile, clientCertFile, clientKeyFile);
    }
}
