package dev.msgbench.cli.measure;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.msgbench.core.system.SystemTarget;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The --help of a command that takes every system's flags: a short synopsis, the flags every run
 * uses, then a section per system with the flags of its module. One list of 80 flags, three
 * systems' interleaved, taught nobody which of them their system reads.
 */
public final class SystemFlagsHelp {

    private SystemFlagsHelp() {
    }

    /** Adds each system's flags to {@code command} as a mixin, and the help that groups them. */
    public static CommandLine install(CommandLine command, List<SystemTarget> systems) {
        for (SystemTarget system : systems) {
            command.addMixin(system.name(), CommandSpec.forAnnotatedObjectLenient(system));
        }
        command.getCommandSpec().usageMessage().abbreviateSynopsis(true);
        command.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, help -> optionList(help, systems));
        return command;
    }

    private static String optionList(Help help, List<SystemTarget> systems) {
        CommandSpec spec = help.commandSpec();
        Set<OptionSpec> ofSystems = new HashSet<>();
        for (SystemTarget system : systems) {
            ofSystems.addAll(spec.mixins().get(system.name()).options());
        }
        List<OptionSpec> common = new ArrayList<>();
        for (OptionSpec option : FlagOrder.ordered(spec)) {
            if (!ofSystems.contains(option) && !option.hidden()) {
                common.add(option);
            }
        }
        StringBuilder text = new StringBuilder(String.format("Options of every system:%n"));
        text.append(help.optionListExcludingGroups(common));
        for (SystemTarget system : systems) {
            List<OptionSpec> own = visible(spec.mixins().get(system.name()).options());
            List<String> borrowed = system.borrowedFlags();
            if (own.isEmpty() && borrowed.isEmpty()) {
                continue;
            }
            text.append(String.format("%n--system %s%s:%n", system.name(),
                    borrowed.isEmpty() ? "" : " (also " + String.join(", ", borrowed) + ", listed above)"));
            text.append(help.optionListExcludingGroups(own));
        }
        return text.toString();
    }

    private static List<OptionSpec> visible(List<OptionSpec> options) {
        return options.stream().filter(o -> !o.hidden()).toList();
    }
}
