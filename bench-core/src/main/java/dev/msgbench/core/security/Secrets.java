package dev.msgbench.core.security;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Every secret this JVM has been given, so that whatever is printed or written can be cleaned of
 * them: the error a client raises with a password inside a URL, a stack trace, a broker's log.
 * Secrets only accumulate; a JVM runs one command.
 */
public final class Secrets {

    public static final String HIDDEN = "***";

    /**
     * Shorter values are not replaced in free text: a two-letter password would turn every
     * occurrence of those letters into stars. Structured output still hides them by field name.
     */
    static final int MIN_SCRUBBED_LENGTH = 3;

    private static volatile List<String> KNOWN = List.of();

    private Secrets() {
    }

    static synchronized void register(String value) {
        if (value.length() < MIN_SCRUBBED_LENGTH) {
            return;
        }
        // also as its UTF-8 bytes read as Latin-1: how ScrubbingOutputStream sees a non-ASCII secret
        String asBytes = new String(value.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        List<String> added = new ArrayList<>(KNOWN);
        for (String form : List.of(value, asBytes)) {
            if (!added.contains(form)) {
                added.add(form);
            }
        }
        // longest first, so that a secret containing another is replaced whole
        added.sort(Comparator.comparingInt(String::length).reversed());
        KNOWN = List.copyOf(added);
    }

    /** Whether any secret is known: without one, output passes untouched. */
    public static boolean any() {
        return !KNOWN.isEmpty();
    }

    /** {@code text} with every known secret replaced by {@value #HIDDEN}. */
    public static String scrub(String text) {
        List<String> known = KNOWN;
        if (text == null || known.isEmpty()) {
            return text;
        }
        String out = text;
        for (String secret : known) {
            if (out.contains(secret)) {
                out = out.replace(secret, HIDDEN);
            }
        }
        return out;
    }
}
