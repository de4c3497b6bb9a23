package dev.msgbench.core.security;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Passwords given inside URLs (nats://user:PASSWORD@host, redis://:PASSWORD@host), made known
 * as {@link Secrets} before anything parses them: an error about an unreachable server quotes
 * its URL, and the password must not come with it.
 */
public final class UrlPasswords {

    private static final Pattern PASSWORD = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\\s]*:([^@/\\s]+)@");

    private UrlPasswords() {
    }

    /** Registers the password of every URL in {@code texts} (command-line arguments, a workload's values). */
    public static void registerAll(String... texts) {
        for (String text : texts) {
            if (text == null) {
                continue;
            }
            Matcher m = PASSWORD.matcher(text);
            while (m.find()) {
                Secret.of(m.group(1));
                String decoded = java.net.URLDecoder.decode(m.group(1), java.nio.charset.StandardCharsets.UTF_8);
                if (!decoded.equals(m.group(1))) {
                    Secret.of(decoded);
                }
            }
        }
    }
}
