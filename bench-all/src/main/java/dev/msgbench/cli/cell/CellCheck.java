package dev.msgbench.cli.cell;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.msgbench.cli.CommandLines;
import dev.msgbench.cli.ErrorLines;
import dev.msgbench.cli.FlagNames;
import dev.msgbench.cli.Io;
import dev.msgbench.cli.measure.CheckedCommand;
import dev.msgbench.cli.measure.FlagOrder;
import dev.msgbench.cli.workload.Catalogs;
import dev.msgbench.cli.workload.Cell;
import dev.msgbench.cli.workload.FlagCatalog;
import dev.msgbench.cli.workload.Origin;
import dev.msgbench.cli.workload.Setting;
import dev.msgbench.core.SettingNames;
import dev.msgbench.core.UserError;
import dev.msgbench.core.system.Systems;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * Turns a cell's arguments into the {@link ParsedCell} a runner takes, checked exactly as its
 * command would check them, without running anything: picocli parses the arguments into a fresh
 * command, and the command runs every check that needs no broker. An error in a workload file's
 * cell comes back at the line that set the offending flag.
 */
public final class CellCheck {

    /** The commands a workload cell may run. */
    static final List<String> COMMANDS = List.of("e2e", "throughput");

    private static final Pattern FLAG = Pattern.compile("--[a-zA-Z0-9][a-zA-Z0-9.-]*");
    /** In a cell, bench-core's lines name a setting as the file writes it ({@code 'acks'}), as its own errors do. */
    private static final SettingNames FILE_KEYS = setting -> "'" + setting.key() + "'";

    private CellCheck() {
    }

    /** The flags of each command and system, read from the command line that runs them. */
    public static Catalogs catalogs(Io io) {
        CommandLine root = CommandLines.measuring(io);
        Map<String, FlagCatalog> commands = new LinkedHashMap<>();
        for (String command : COMMANDS) {
            commands.put(command, FlagCatalog.of(command, FlagOrder.ordered(root.getSubcommands().get(command).getCommandSpec())));
        }
        CommandSpec e2e = root.getSubcommands().get("e2e").getCommandSpec();
        Map<String, List<String>> borrowed = new LinkedHashMap<>();
        Systems.create().forEach(t -> borrowed.put(t.name(), t.borrowedFlags()));
        return new Catalogs(commands, Systems.names(), (system, key) -> {
            CommandSpec mixin = e2e.mixins().get(system);
            return mixin != null && mixin.findOption("--" + key) != null
                    || borrowed.getOrDefault(system, List.of()).contains("--" + key);
        });
    }

    /** Parses and checks a workload cell's arguments; throws a UserError at the line that set the bad flag. */
    public static ParsedCell check(Io io, Cell cell, List<String> args) {
        try {
            return parse(io, args);
        } catch (ParameterException e) {
            throw located(cell, e.getArgSpec() instanceof OptionSpec option ? List.of(option.names()) : List.of(),
                    e.getMessage());
        } catch (UserError e) {
            throw located(cell, e.settings().stream().map(FlagNames.FLAGS::nameOf).toList(), e.message(FILE_KEYS));
        }
    }

    /**
     * Parses a command's arguments (e2e or throughput first) into a fresh command line and runs
     * the command's checks.
     *
     * @throws ParameterException or UserError as the command would, naming the flag
     */
    public static ParsedCell parse(Io io, List<String> args) {
        CommandLine.ParseResult parsed = CommandLines.measuring(io).parseArgs(args.toArray(String[]::new));
        return ((CheckedCommand) parsed.subcommand().commandSpec().userObject()).checkFlags();
    }

    /** @param flags the flags the error is about, when it says: the first the cell sets is where it points */
    private static UserError located(Cell cell, List<String> flags, String message) {
        Origin origin = originOf(cell, flags);
        if (origin == null && message != null) {
            Matcher m = FLAG.matcher(message);
            while (origin == null && m.find()) {
                origin = originOf(cell, List.of(m.group()));
            }
        }
        if (origin == null) {
            origin = cell.origin();
        }
        return origin.error(ErrorLines.oneLine(message) + " (cell " + cell.index() + ": " + cell.label() + ")");
    }

    private static Origin originOf(Cell cell, List<String> flags) {
        for (Setting setting : cell.settings()) {
            if (flags.contains("--" + setting.key())) {
                return setting.origin();
            }
        }
        return null;
    }
}
