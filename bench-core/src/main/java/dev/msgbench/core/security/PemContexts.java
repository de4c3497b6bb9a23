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

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
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
                for (Certificate ca : certificates(Setting.CA, files.caFile())) {
                    trusted.setCertificateEntry("ca-" + i++, ca);
                }
                trust.init(trusted);
            }
            KeyManagerFactory keys = null;
            if (files.mutual()) {
                KeyStore identity = KeyStore.getInstance("PKCS12");
                identity.load(null, null);
                List<Certificate> chain = certificates(Setting.CLIENT_CERT, files.clientCertFile());
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

    static List<Certificate> certificates(Setting setting, Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            Collection<? extends Certificate> read = CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (read.isEmpty()) {
                throw new UserError(Phrase.of("%s: no PEM certificate in %s", setting, file));
            }
            return List.copyOf(read);
        } catch (java.security.cert.CertificateException e) {
            throw new UserError(Phrase.of("%s: %s is not a PEM certificate (%s)", setting, file, e.getMessage()), e);
        }
    }

    static PrivateKey privateKey(Path file) throws IOException {
        String pem = Files.readString(file, StandardCharsets.US_ASCII);
        int begin = pem.indexOf(PKCS8_BEGIN);
        int end = pem.indexOf(PKCS8_END);
        if (begin < 0 || end < begin) {
            throw new UserError(Phrase.of("%s: %s is not an unencrypted PKCS#8 PEM key (\"%s\"); convert it with: "
                    + "openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8", Setting.CLIENT_KEY, file, PKCS8_BEGIN));
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
        throw new UserError(Phrase.of("%s: %s holds a key that is neither EC, RSA nor Ed25519", Setting.CLIENT_KEY, file));
    }
}
