package dev.msgbench.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A line for the user that names settings without spelling them: a {@link String#format} template
 * (with {@link Locale#US}) whose {@link Setting} arguments are named only when the line is shown,
 * by whoever shows it ({@link #render}), so that the command line says {@code --topics} where a
 * workload file could say {@code 'topics'}. An argument that is a phrase is rendered the same way;
 * any other argument is formatted as it is.
 *
 * <pre>{@code Phrase.of("%s %d: every topic needs a producer stream of its own", Setting.TOPICS, topics)}</pre>
 */
public final class Phrase {

    private final String template;
    private final Object[] args;

    private Phrase(String template, Object[] args) {
        this.template = template;
        this.args = args;
    }

    public static Phrase of(String template, Object... args) {
        return new Phrase(template, args.clone());
    }

    /** Text that names no setting, as it is. */
    public static Phrase text(String text) {
        return of("%s", text);
    }

    /** The line, each setting named by {@code names}. */
    public String render(SettingNames names) {
        Object[] rendered = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            rendered[i] = args[i] instanceof Setting setting ? names.nameOf(setting)
                    : args[i] instanceof Phrase phrase ? phrase.render(names) : args[i];
        }
        return String.format(Locale.US, template, rendered);
    }

    /** The settings the line names, in their order, those of phrases inside it included. */
    public List<Setting> settings() {
        List<Setting> named = new ArrayList<>();
        for (Object arg : args) {
            if (arg instanceof Setting setting) {
                named.add(setting);
            } else if (arg instanceof Phrase phrase) {
                named.addAll(phrase.settings());
            }
        }
        return named;
    }

    /** The line with each setting by its own key ({@link SettingNames#KEYS}). */
    @Override
    public String toString() {
        return render(SettingNames.KEYS);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Phrase other && template.equals(other.template) && Arrays.equals(args, other.args);
    }

    @Override
    public int hashCode() {
        return 31 * template.hashCode() + Arrays.hashCode(args);
    }
}
