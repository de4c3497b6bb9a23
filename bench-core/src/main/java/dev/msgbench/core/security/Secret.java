package dev.msgbench.core.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import dev.msgbench.core.UserError;

/**
 * A password, token or key that must never be shown: {@link #toString} hides it, and making one
 * registers its value with {@link Secrets}, so any line the suite prints or writes is cleaned of it
 * even when a client library puts it into an error message.
 */
public final class Secret {

    private final String value;

    private Secret(String value) {
        this.value = value;
    }

    /** @throws IllegalArgumentException for an empty value, which protects nothing */
    public static Secret of(String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("a secret cannot be empty");
        }
        Secrets.register(value);
        return new Secret(value);
    }

    /**
     * The secret in {@code file}, without the line end an editor adds; named by {@code flag} in
     * the one-line error when the file cannot be read or is empty.
     */
    public static Secret fromFile(String flag, Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UserError(flag + ": no such file " + file);
        } catch (IOException e) {
            throw new UserError(flag + ": cannot read " + file + " (" + e.getClass().getSimpleName() + ")");
        }
        String value = text.strip();
        if (value.isEmpty()) {
            throw new UserError(flag + ": " + file + " is empty");
        }
        return of(value);
    }

    /** The secret in environment variable {@code name}, for --password-env and the like. */
    public static Secret fromEnv(String flag, String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new UserError(flag + ": environment variable " + name + " is " + (value == null ? "not set" : "empty"));
        }
        return of(value);
    }

    /** The value, for the one place that must hand it to a client or a server's configuration. */
    public String reveal() {
        return value;
    }

    @Override
    public String toString() {
        return Secrets.HIDDEN;
    }
}
