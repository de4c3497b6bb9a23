package dev.msgbench.core.result;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.msgbench.core.security.Secrets;

/**
 * Keeps secrets out of results: passwords inside URLs (amqp://user:password@host) and the
 * values of settings whose names say they are secret (sasl.jaas.config, ssl.key.password).
 * Results are shared and pasted into issues; a secret in one is a leaked secret.
 */
public final class Redaction {

    public static final String HIDDEN = "***";

    private static final Pattern URL_PASSWORD = Pattern.compile("(\\b[a-zA-Z][a-zA-Z0-9+.-]*://[^:/@\\s]*):[^@/\\s]*@");
    private static final Pattern SECRET_NAME = Pattern.compile("(?i).*(password|secret|token|credential|jaas|apikey|api\\.key).*");

    private Redaction() {
    }

    /** A copy of {@code map} with secrets replaced, recursively through maps and lists. */
    public static Map<String, Object> redact(Map<String, ?> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(k, SECRET_NAME.matcher(k).matches() && v != null ? HIDDEN : redactValue(v)));
        return out;
    }

    /** {@code text} without a password in a URL, nor any secret the suite was given ({@link Secrets}). */
    public static String redactUrl(String text) {
        return text == null ? null : Secrets.scrub(URL_PASSWORD.matcher(text).replaceAll("$1:" + HIDDEN + "@"));
    }

    @SuppressWarnings("unchecked")
    private static Object redactValue(Object value) {
        if (value instanceof String) {
            return redactUrl((String) value);
        }
        if (value instanceof Map) {
            return redact((Map<String, ?>) value);
        }
        if (value instanceof List) {
            List<Object> out = new ArrayList<>();
            for (Object item : (List<?>) value) {
                out.add(redactValue(item));
            }
            return out;
        }
        return value;
    }
}
