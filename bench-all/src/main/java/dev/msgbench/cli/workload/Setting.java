package dev.msgbench.cli.workload;

/**
 * One flag of a cell: its long name without the dashes ({@code size}, {@code broker-prop}), its
 * value, and where it was written.
 */
public record Setting(String key, FlagValue value, Origin origin) {
}
