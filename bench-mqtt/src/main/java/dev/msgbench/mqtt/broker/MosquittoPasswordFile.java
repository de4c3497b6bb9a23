package dev.msgbench.mqtt.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

import dev.msgbench.core.UserError;
import dev.msgbench.core.security.BrokerSecurity;

/**
 * Mosquitto's password_file for a secured node: one line {@code user:$7$101$SALT$HASH}, as
 * Mosquitto 2.0's mosquitto_passwd writes it (PBKDF2-HMAC-SHA512, 101 iterations, a 12-byte
 * random salt, a 64-byte hash, both base64).
 *
 * <p>Computed here rather than by mosquitto_passwd: {@code -b} would put the password on a command
 * line (ps shows it), and {@code -U} hashes a file that would hold it in clear until then; here it
 * never leaves this JVM but hashed.
 */
final class MosquittoPasswordFile {

    static final int ITERATIONS = 101;
    private static final int SALT_BYTES = 12;
    private static final int HASH_BITS = 512;

    private MosquittoPasswordFile() {
    }

    /** Writes {@code login}'s line to {@code file}, owner-only. */
    static void write(BrokerSecurity login, Path file) {
        byte[] salt = new byte[SALT_BYTES];
        new SecureRandom().nextBytes(salt);
        try {
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, line(login.user(), login.password().reveal(), salt) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** {@code user:$7$101$SALT$HASH}; a ':' or a line end in the user name would break the file's one line. */
    static String line(String user, String password, byte[] salt) {
        if (user.isEmpty() || user.contains(":") || user.contains("\n")) {
            throw new UserError("--user: Mosquitto's password file takes a user name without ':' or line ends, got '"
                    + user + "'");
        }
        Base64.Encoder base64 = Base64.getEncoder();
        return user + ":$7$" + ITERATIONS + "$" + base64.encodeToString(salt) + "$"
                + base64.encodeToString(hash(password, salt));
    }

    private static byte[] hash(String password, byte[] salt) {
        PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, ITERATIONS, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA512").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no PBKDF2WithHmacSHA512", e);
        } finally {
            spec.clearPassword();
        }
    }
}
