package dev.msgbench.pulsar.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.msgbench.core.security.Secret;

/**
 * The secret key of a secured local Pulsar's token login (Pulsar's tokenSecretKey, read by
 * AuthenticationProviderToken) and the one token the suite signs with it, each in an owner-only
 * file of the run's temp dir.
 *
 * <p>The token is a JWT as Pulsar's {@code tokens create --secret-key} makes it: header
 * {@code {"alg":"HS256"}}, the subject (the role) as its only claim, an HMAC-SHA256 signature;
 * made here with the JDK's Mac, since this JVM has no jjwt. The key is 32 random bytes: HS256 wants
 * 256 bits, and the jjwt the broker runs refuses less.
 */
public final class TokenKey {

    private static final int KEY_BYTES = 32;
    private static final String HMAC = "HmacSHA256";
    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path keyFile;
    private final Path tokenFile;
    private final Secret token;

    private TokenKey(Path keyFile, Path tokenFile, Secret token) {
        this.keyFile = keyFile;
        this.tokenFile = tokenFile;
        this.token = token;
    }

    /** A new random key in {@code dir}/token-secret.key and a token for {@code subject} in {@code dir}/token. */
    public static TokenKey create(Path dir, String subject) {
        byte[] key = new byte[KEY_BYTES];
        new SecureRandom().nextBytes(key);
        Path keyFile = dir.resolve("token-secret.key");
        Path tokenFile = dir.resolve("token");
        Secret token = Secret.of(sign(key, subject));
        writeOwnerOnly(keyFile, key);
        writeOwnerOnly(tokenFile, token.reveal().getBytes(StandardCharsets.UTF_8));
        return new TokenKey(keyFile, tokenFile, token);
    }

    /** {@code BASE64URL(header).BASE64URL(claims).BASE64URL(HMAC-SHA256 of both with key)}. */
    static String sign(byte[] key, String subject) {
        try {
            String body = URL.encodeToString("{\"alg\":\"HS256\"}".getBytes(StandardCharsets.UTF_8)) + "."
                    + URL.encodeToString(JSON.writeValueAsBytes(Map.of("sub", subject)));
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return body + "." + URL.encodeToString(mac.doFinal(body.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException | JsonProcessingException e) {
            throw new IllegalStateException("cannot sign a token", e);
        }
    }

    private static void writeOwnerOnly(Path file, byte[] bytes) {
        try {
            Files.write(file, new byte[0]);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** What the broker's tokenSecretKey says: the key's file as a URL. */
    String brokerSetting() {
        return keyFile.toUri().toString();
    }

    /** The token, as a client sends it. */
    public Secret token() {
        return token;
    }

    /** The owner-only file that holds the token, for a client of this broker (--pulsar-token-file). */
    public Path tokenFile() {
        return tokenFile;
    }
}
