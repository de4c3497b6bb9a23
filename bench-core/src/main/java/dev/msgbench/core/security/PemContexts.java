package dev.msgbench.core.security;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import dev.msgbench.core.UserError;

/**
 * Builds JSSE contexts from PEM files, the form servers and openssl use, so that users need no
 * keystores. Private keys must be unencrypted PKCS#8 ("BEGIN PRIVATE KEY"), as openssl 3 writes
 * them; older forms get a one-line hint to convert.
 */
final class PemContexts {

    private static final String PKCS8_BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String PKCS8_END = "-----END PRIVATE KEY-----";
    /** Never stored anywhere: the in-memory keystore needs some password. */
    private static final char[] IN_MEMORY = "msgbench".toCharArray();

    private PemContexts() {
    }

    static SSLContext sslContext(TlsFiles files) {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (files.caFile() == null) {
                trust.init((KeyStore) null);
            } else {
                KeyStore trusted = KeyStore.getInstance("PKCS12");
                trusted.load(null, null);
                int i = 0;
                for (Certificate ca : certificates("--ca", files.caFile())) {
                    trusted.setCertificateEntry("ca-" + i++, ca);
                }
                trust.init(trusted);
            }
            KeyManagerFactory keys = null;
            if (files.mutual()) {
                KeyStore identity = KeyStore.getInstance("PKCS12");
                identity.load(null, null);
                List<Certificate> chain = certificates("--client-cert", files.clientCertFile());
                identity.setKeyEntry("client", privateKey(files.clientKeyFile()), IN_MEMORY, chain.toArray(new Certificate[0]));
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(identity, IN_MEMORY);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new UserError("TLS: cannot use " + files + ": " + e.getMessage(), e);
        }
    }

    static List<Certificate> certificates(String flag, Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            Collection<? extends Certificate> read = CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (read.isEmpty()) {
                throw new UserError(flag + ": no PEM certificate in " + file);
            }
            return List.copyOf(read);
        } catch (java.security.cert.CertificateException e) {
            throw new UserError(flag + ": " + file + " is not a PEM certificate (" + e.getMessage() + ")", e);
        }
    }

    static PrivateKey privateKey(Path file) throws IOException {
        String pem = Files.readString(file, StandardCharsets.US_ASCII);
        int begin = pem.indexOf(PKCS8_BEGIN);
        int end = pem.indexOf(PKCS8_END);
        if (begin < 0 || end < begin) {
            throw new UserError("--client-key: " + file + " is not an unencrypted PKCS#8 PEM key (\"" + PKCS8_BEGIN
                    + "\"); convert it with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8");
        }
        byte[] der = Base64.getMimeDecoder().decode(pem.substring(begin + PKCS8_BEGIN.length(), end));
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : List.of("EC", "RSA", "Ed25519")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // not this algorithm: the next one
            }
        }
        throw new UserError("--client-key: " + file + " holds a key that is neither EC, RSA nor Ed25519");
    }
}
