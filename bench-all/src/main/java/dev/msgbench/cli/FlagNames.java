package dev.msgbench.cli;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.SettingNames;
import dev.msgbench.core.UserError;

/**
 * The command line's names for the settings that bench-core's lines name ({@link
 * dev.msgbench.core.Setting}): each one's flag, its key after two dashes ({@code --topics}), as a
 * workload file's keys are the flags without them. FlagNamesTest checks that every setting is an
 * option of the tool.
 */
public final class FlagNames {

    /** Every setting by its flag. */
    public static final SettingNames FLAGS = setting -> "--" + setting.key();

    private FlagNames() {
    }

    /** The line as the command line says it. */
    public static String render(Phrase phrase) {
        return phrase.render(FLAGS);
    }

    /** A failure's message as the command line says it: a user error's settings by their flags. */
    public static String messageOf(Throwable t) {
        return UserError.messageOf(t, FLAGS);
    }
}
