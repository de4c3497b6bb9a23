package dev.msgbench.cli.measure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The order a measuring command's flags are listed in (--help, a workload file's list of flags):
 * which system and where it runs, then the command's own pacing (e2e's rate, throughput's
 * messages), then what every measurement shares, then help, then each system's own flags.
 * Picocli itself lists a base class's flags first, which would put the rate after the metrics.
 */
public final class FlagOrder {

    /** The mixins whose flags come first: which system, where it is, and on which CPUs. */
    private static final Set<String> LEADING = Set.of("target", "pinning");
    /** e2e's pacing mixins; throughput's pacing flags are its own fields. */
    private static final Set<String> PACING = Set.of("load", "rateSchedule");

    private FlagOrder() {
    }

    /** Every option of {@code spec}, in that order; declaration order within each group. */
    public static List<OptionSpec> ordered(CommandSpec spec) {
        List<OptionSpec> options = new ArrayList<>(spec.options());
        options.sort(Comparator.comparingInt(option -> rank(spec, option)));
        return options;
    }

    private static int rank(CommandSpec spec, OptionSpec option) {
        String mixin = mixinOf(spec, option);
        if (mixin != null && LEADING.contains(mixin)) {
            return 0;
        }
        if (mixin == null && (option.usageHelp() || option.versionHelp())) {
            return 3;
        }
        if (mixin == null || PACING.contains(mixin)) {
            return 1;
        }
        return MeasureCommand.SHARED_MIXINS.contains(mixin) ? 2 : mixin.equals("mixinStandardHelpOptions") ? 3 : 4;
    }

    private static String mixinOf(CommandSpec spec, OptionSpec option) {
        for (Map.Entry<String, CommandSpec> mixin : spec.mixins().entrySet()) {
            if (mixin.getValue().options().contains(option)) {
                return mixin.getKey();
            }
        }
        return null;
    }
}
