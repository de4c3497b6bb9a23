package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;

/**
 * Searches every byte a run printed and wrote for a known secret: as it is, and base64-encoded
 * (how a SASL PLAIN exchange or a basic-auth header would carry it).
 */
final class SecretLeaks {

    private SecretLeaks() {
    }

    /** A file in {@code dir} holding {@code password} and a line end, as an editor leaves it, for --password-file. */
    static Path passwordFile(Path dir, String password) throws IOException {
        Path file = dir.resolve("password-" + password.length() + "-" + password.hashCode());
        Files.writeString(file, password + "\n", StandardCharsets.UTF_8);
        return file;
    }

    /** Fails naming each file, or the printed stream, that holds {@code secret}. */
    static void assertAbsent(String secret, CliRun printed, Path... written) throws IOException {
        List<byte[]> forms = List.of(secret.getBytes(StandardCharsets.UTF_8),
                Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
        List<String> leaks = new ArrayList<>();
        if (printed != null) {
            if (contains(printed.out.getBytes(StandardCharsets.UTF_8), forms)) {
                leaks.add("stdout");
            }
            if (contains(printed.err.getBytes(StandardCharsets.UTF_8), forms)) {
                leaks.add("stderr");
            }
        }
        int files = 0;
        for (Path root : written) {
            if (!Files.exists(root)) {
                continue;
            }
            try (Stream<Path> all = Files.walk(root)) {
                for (Path file : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                    files++;
                    if (contains(Files.readAllBytes(file), forms)) {
                        leaks.add(file.toString());
                    }
                }
            }
        }
        if (!leaks.isEmpty()) {
            fail("the secret is in: " + String.join(", ", leaks) + "\n" + printed);
        }
        assertFalse(files == 0 && written.length > 0 && printed == null, "nothing was searched");
    }

    private static boolean contains(byte[] haystack, List<byte[]> needles) {
        for (byte[] needle : needles) {
            outer:
            for (int i = 0; i + needle.length <= haystack.length; i++) {
                for (int j = 0; j < needle.length; j++) {
                    if (haystack[i + j] != needle[j]) {
                        continue outer;
                    }
                }
                return true;
            }
        }
        return false;
    }
}
