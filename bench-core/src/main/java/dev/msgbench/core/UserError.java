package dev.msgbench.core;

import java.util.List;

/**
 * A problem the user can fix: bad input, a missing program, an unreachable server.
 *
 * <p>The command line prints only the message, on one line, and exits with code 2; no stack
 * trace. The message names the setting or file, the rule and the offending value, and where it
 * can, the next step ("install nats-server or pass --url"). bench-core names a setting through a
 * {@link Phrase}, which whoever shows the error renders ({@link #message(SettingNames)}: the
 * command line with its flags); {@link #getMessage()} names each by its own key.
 */
public class UserError extends RuntimeException {

    private final transient Phrase phrase;

    public UserError(String message) {
        this(message, null);
    }

    public UserError(String message, Throwable cause) {
        this(message == null ? null : Phrase.text(message), cause);
    }

    public UserError(Phrase phrase) {
        this(phrase, null);
    }

    public UserError(Phrase phrase, Throwable cause) {
        super(phrase == null ? null : phrase.toString(), cause, false, false);
        this.phrase = phrase;
    }

    /** The message with each setting named by {@code names}. */
    public String message(SettingNames names) {
        return phrase == null ? getMessage() : phrase.render(names);
    }

    /** The settings the message names, for whoever points at where the user set them. */
    public List<Setting> settings() {
        return phrase == null ? List.of() : phrase.settings();
    }

    /** Any failure's message, a user error's with its settings named by {@code names}; null for none. */
    public static String messageOf(Throwable t, SettingNames names) {
        return t instanceof UserError error ? error.message(names) : t.getMessage();
    }
}
