package dev.msgbench.core;

/**
 * How whoever shows a message names the settings in it: the command line by its flags
 * ({@code --topics}), a workload file by its keys. Passed to what renders a {@link Phrase}, never
 * kept anywhere global.
 */
@FunctionalInterface
public interface SettingNames {

    /** Each setting by its own key ({@code topics}): bench-core's lines where nobody names them otherwise. */
    SettingNames KEYS = Setting::key;

    String nameOf(Setting setting);
}
