package dev.msgbench.core.run;

import java.util.List;
import java.util.Objects;

import dev.msgbench.core.SettingNames;
import dev.msgbench.core.cpu.CpuWatch;
import dev.msgbench.core.fault.FaultTarget;
import dev.msgbench.core.result.RunResult;

/**
 * What surrounds a run without being part of its description ({@link RunSpec}): where its progress
 * goes, what watches the machine, what its faults act on, and what happened before it. None of it
 * can be written to a file and read back; all of it is given to {@link LoadRun} whole, with the spec.
 *
 * @param plainProgress    prints the header when sending starts, and plain progress lines where no
 *                         terminal shows the live line; null for neither
 * @param liveFigures      told the run's counts, rates and latency each interval (--metrics-port)
 * @param cpuWatch         reads the CPUs' use each interval and over the measured window
 *                         ({@link CpuWatch#NONE}: no CPU figures)
 * @param faultTarget      what the run's faults (--fault) act on; {@link FaultTarget#NONE}: only exec faults
 * @param warmups          the warm-up runs made before this one ({@link RunSpec#warmupRuns}), in their
 *                         order, described in result.json's {@code loadGenerator.warmupRun}
 * @param spinWindowChoice how the clock's spin window was chosen (--spin-window auto), for result.json
 *                         and the summary; null when not said
 * @param settingNames     how the run's warnings and errors, in result.json and the summary, name the
 *                         settings they are about: the command line's flags where it runs the run
 *                         ({@link SettingNames#KEYS}: by their own keys)
 */
public record RunContext(PlainProgress plainProgress, LiveFigures liveFigures, CpuWatch cpuWatch, FaultTarget faultTarget,
                         List<RunResult> warmups, String spinWindowChoice, SettingNames settingNames) {

    /** Nothing around the run: no progress lines, no CPU figures, no broker to fault, no warm-up before it. */
    public static final RunContext NONE = new RunContext(null, LiveFigures.NONE, CpuWatch.NONE, FaultTarget.NONE,
            List.of(), null, SettingNames.KEYS);

    public RunContext {
        Objects.requireNonNull(liveFigures, "liveFigures");
        Objects.requireNonNull(cpuWatch, "cpuWatch");
        Objects.requireNonNull(faultTarget, "faultTarget");
        Objects.requireNonNull(settingNames, "settingNames");
        warmups = List.copyOf(warmups);
    }

    public RunContext withPlainProgress(PlainProgress progress) {
        return new RunContext(progress, liveFigures, cpuWatch, faultTarget, warmups, spinWindowChoice, settingNames);
    }

    public RunContext withLiveFigures(LiveFigures figures) {
        return new RunContext(plainProgress, figures, cpuWatch, faultTarget, warmups, spinWindowChoice, settingNames);
    }

    public RunContext withCpuWatch(CpuWatch watch) {
        return new RunContext(plainProgress, liveFigures, watch, faultTarget, warmups, spinWindowChoice, settingNames);
    }

    public RunContext withFaultTarget(FaultTarget target) {
        return new RunContext(plainProgress, liveFigures, cpuWatch, target, warmups, spinWindowChoice, settingNames);
    }

    public RunContext withWarmups(List<RunResult> runs) {
        return new RunContext(plainProgress, liveFigures, cpuWatch, faultTarget, runs, spinWindowChoice, settingNames);
    }

    public RunContext withSpinWindowChoice(String why) {
        return new RunContext(plainProgress, liveFigures, cpuWatch, faultTarget, warmups, why, settingNames);
    }

    public RunContext withSettingNames(SettingNames names) {
        return new RunContext(plainProgress, liveFigures, cpuWatch, faultTarget, warmups, spinWindowChoice, names);
    }
}
