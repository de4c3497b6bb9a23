package dev.msgbench.core.fault;

import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;
import dev.msgbench.core.units.Durations;

/**
 * One fault of a run, as given with --fault. Times count from the start of the measured window.
 *
 * @param text         the value as given, for messages and the results
 * @param at           when, from the start of the measured window
 * @param pause        how long a fault that {@linkplain FaultKind#lasts() lasts} does: a
 *                     {@link FaultKind#PAUSE}, a {@link FaultKind#PARTITION}, a sick disk's
 *                     {@code :for=}; null for the other kinds
 * @param restartAfter when a {@link FaultKind#KILL}ed node is started again, null for never; when a
 *                     node is started after a {@link FaultKind#POWER_LOSS}, never null; null for the
 *                     other kinds
 * @param node         the node hit ({@link NodeChoice#ALL} only for a fault of the disk,
 *                     {@link FaultKind#takesAllNodes}); null for {@link FaultKind#EXEC}
 * @param command      the {@link FaultKind#EXEC} command, run with {@code sh -c}; null otherwise
 * @param delay        what a {@link FaultKind#SLOW_DISK} adds to every durable write; null for the other
 *                     kinds
 */
public record FaultSpec(String text, FaultKind kind, Duration at, Duration pause, Duration restartAfter, NodeChoice node,
                        String command, Duration delay) {

    public static final Duration DEFAULT_RESTART_AFTER = Duration.ofSeconds(5);

    private static final String SLOW_DISK_EXAMPLE = "slow-disk=50ms@10s:for=5s";

    /** The forms, for every parse error: the user sees the rule beside the value. */
    public static final Phrase FORMS = Phrase.of("pause=DURATION@TIME, kill@TIME, restart@TIME, partition=DURATION@TIME "
            + "(%s), power-loss@TIME, slow-disk=DURATION@TIME:for=DURATION, disk-full@TIME:for=DURATION (each "
            + "optionally followed by :node=N|leader|any-follower|coordinator|ROLE-N (a node a system names, as Pulsar's "
            + "bookie-2), power-loss, slow-disk and disk-full also by "
            + ":node=all; kill also by :restart-after=DURATION|never, power-loss by :restart-after=DURATION) or "
            + "exec@TIME='COMMAND'", Setting.ISOLATE);

    public FaultSpec {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(at, "at");
        if ((kind == FaultKind.EXEC) != (command != null) || (kind == FaultKind.EXEC) == (node != null)
                || kind.lasts() != (pause != null) || !kind.restarts() && restartAfter != null
                || kind == FaultKind.POWER_LOSS && restartAfter == null
                || node != null && node.rule() == NodeChoice.Rule.ALL && !kind.takesAllNodes()
                || (kind == FaultKind.SLOW_DISK) != (delay != null)) {
            throw new IllegalArgumentException("fields that do not fit a " + kind.label() + " fault: " + text);
        }
    }

    /** Any kind but a slow disk, which has its delay. */
    public FaultSpec(String text, FaultKind kind, Duration at, Duration pause, Duration restartAfter, NodeChoice node,
                     String command) {
        this(text, kind, at, pause, restartAfter, node, command, null);
    }

    /** Whether it acts on a node of a broker the suite started (every kind but exec). */
    public boolean needsLocalBroker() {
        return kind != FaultKind.EXEC;
    }

    /**
     * Parses a --fault value.
     *
     * @throws UserError whose message names the value and the rule it breaks, and the forms
     */
    public static FaultSpec parse(String text) {
        Objects.requireNonNull(text, "text");
        int at = text.indexOf('@');
        if (at < 0) {
            throw error(text, "no @TIME");
        }
        String head = text.substring(0, at);
        String rest = text.substring(at + 1);
        String kindWord = head.contains("=") ? head.substring(0, head.indexOf('=')) : head;
        FaultKind kind = kindOf(text, kindWord);
        if (kind == FaultKind.EXEC) {
            if (!head.equals("exec")) {
                throw error(text, "exec takes no value before @");
            }
            return parseExec(text, rest);
        }
        Duration pause = null;
        Duration delay = null;
        if (kind == FaultKind.SLOW_DISK) {
            String prefix = kind.label() + "=";
            if (!head.startsWith(prefix) || head.length() == prefix.length()) {
                throw error(text, "a slow-disk needs its delay, as in " + SLOW_DISK_EXAMPLE);
            }
            delay = positive(text, "the slow-disk's delay", head.substring(prefix.length()));
        } else if (kind.lasts() && !kind.sickensDisk()) {
            String prefix = kind.label() + "=";
            if (!head.startsWith(prefix) || head.length() == prefix.length()) {
                throw error(text, "a " + kind.label() + " needs its length, as in " + prefix + "2s@10s");
            }
            pause = positive(text, "the " + kind.label(), head.substring(prefix.length()));
        } else if (!head.equals(kind.label())) {
            throw error(text, kind.label() + " takes no value before @");
        }
        String[] parts = rest.split(":", -1);
        Duration time = time(text, parts[0]);
        NodeChoice node = NodeChoice.LEADER;
        Duration restartAfter = kind.restarts() ? DEFAULT_RESTART_AFTER : null;
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < parts.length; i++) {
            String option = parts[i];
            int eq = option.indexOf('=');
            String name = eq < 0 ? option : option.substring(0, eq);
            String value = eq < 0 ? "" : option.substring(eq + 1);
            if (!seen.add(name)) {
                throw error(text, "option '" + name + "' given twice");
            }
            if (eq < 0 || value.isEmpty()) {
                throw error(text, "option '" + option + "' needs a value, as in node=2");
            }
            if (name.equals("node")) {
                node = node(text, kind, value);
                if (node.rule() == NodeChoice.Rule.ALL && !kind.takesAllNodes()) {
                    throw error(text, "node=all is for power-loss, slow-disk and disk-full only (every node's disk "
                            + "at once)");
                }
            } else if (name.equals("restart-after") && kind.restarts()) {
                if (value.equals("never") && kind == FaultKind.POWER_LOSS) {
                    throw error(text, "a power-loss always restarts the node, on what its disk kept; for a node that "
                            + "stays down use kill@TIME:restart-after=never");
                }
                restartAfter = value.equals("never") ? null : positive(text, "restart-after", value);
            } else if (name.equals("for") && kind.sickensDisk()) {
                pause = positive(text, "for", value);
            } else {
                throw error(text, "unknown option '" + name + "' for " + kind.label()
                        + " (options: node" + (kind.restarts() ? ", restart-after" : "")
                        + (kind.sickensDisk() ? ", for" : "") + ")");
            }
        }
        if (kind.sickensDisk() && pause == null) {
            throw error(text, "a " + kind.label() + " needs :for=DURATION, how long the disk ails, as in "
                    + (kind == FaultKind.SLOW_DISK ? SLOW_DISK_EXAMPLE : "disk-full@10s:for=5s"));
        }
        return new FaultSpec(text, kind, time, pause, restartAfter, node, null, delay);
    }

    private static FaultSpec parseExec(String text, String rest) {
        int eq = rest.indexOf('=');
        if (eq < 0) {
            throw error(text, "exec needs its command, as in exec@30s='ssh host sudo systemctl stop kafka'");
        }
        Duration time = time(text, rest.substring(0, eq));
        String command = rest.substring(eq + 1);
        if (!command.isEmpty() && (command.charAt(0) == '\'' || command.charAt(0) == '"')) {
            char quote = command.charAt(0);
            if (command.length() < 2 || command.charAt(command.length() - 1) != quote) {
                throw error(text, "the command's quotes are unbalanced");
            }
            command = command.substring(1, command.length() - 1);
        }
        if (command.isBlank()) {
            throw error(text, "exec needs its command, as in exec@30s='ssh host sudo systemctl stop kafka'");
        }
        return new FaultSpec(text, FaultKind.EXEC, time, null, null, null, command);
    }

    private static FaultKind kindOf(String text, String word) {
        for (FaultKind kind : FaultKind.values()) {
            if (kind.label().equals(word)) {
                return kind;
            }
        }
        throw error(text, "unknown fault '" + word + "'");
    }

    private static Duration time(String text, String value) {
        if (value.isEmpty()) {
            throw error(text, "no time after @");
        }
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw error(text, "the time " + e.getMessage());
        }
    }

    private static Duration positive(String text, String what, String value) {
        Duration d;
        try {
            d = Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw error(text, what + " " + e.getMessage());
        }
        if (d.isZero()) {
            throw error(text, what + " must be longer than 0, got '" + value + "'");
        }
        return d;
    }

    private static NodeChoice node(String text, FaultKind kind, String value) {
        if (value.equals("leader")) {
            return NodeChoice.LEADER;
        }
        if (value.equals("any-follower")) {
            return NodeChoice.ANY_FOLLOWER;
        }
        if (value.equals("all")) {
            return NodeChoice.ALL;
        }
        if (value.equals("coordinator")) {
            return NodeChoice.COORDINATOR;
        }
        if (value.matches("[0-9]{1,9}") && Integer.parseInt(value) >= 1) {
            return NodeChoice.node(Integer.parseInt(value));
        }
        if (value.matches("[a-z]+-[0-9]{1,9}") && Integer.parseInt(value.substring(value.indexOf('-') + 1)) >= 1) {
            return NodeChoice.named(value.substring(0, value.indexOf('-')),
                    Integer.parseInt(value.substring(value.indexOf('-') + 1)));
        }
        throw error(text, "node must be a number from 1, leader, any-follower, coordinator" + (kind.takesAllNodes()
                ? ", all" : "") + " or ROLE-N (as bookie-2), got '" + value + "'");
    }

    private static UserError error(String text, String rule) {
        return new UserError(Phrase.of("'%s': %s; the forms are %s", text, rule, FORMS));
    }

    /**
     * The same fault on {@code node}: a {@link NodeChoice.Rule#NAMED} node once the system has
     * numbered it; the text stays as given.
     */
    public FaultSpec withNode(NodeChoice node) {
        return new FaultSpec(text, kind, at, pause, restartAfter, node, command, delay);
    }

    /** When the fault is due, from the start of the measured window, in nanoseconds. */
    public long atNanos() {
        return at.toNanos();
    }
}
