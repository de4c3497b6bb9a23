package dev.msgbench.core.cpu;

import java.time.Duration;

import dev.msgbench.core.Setting;
import dev.msgbench.core.SettingNames;

/**
 * How long before each send the producers spin rather than sleep (--spin-window), and why.
 *
 * <p>By default ({@code auto}) they spin only on cores the broker does not use: a spinning
 * producer keeps its schedule to the microsecond, but it holds a core while it spins, and once
 * the gap between sends is shorter than the window it never sleeps at all. On cores the broker
 * shares, the broker then waits for that core, and its wait is what the run measures
 * (docs/measurements.md, "The load generator on a small machine"). Sleeping costs a send delay
 * of the kernel's wake-up instead, which latency from the intended send time shows as it is.
 *
 * @param nanos the window, 0 for sleeping until each send
 * @param why   how it was chosen, for result.json and the summary
 */
public record SpinWindowChoice(long nanos, String why) {

    /** Longer than a park's usual overshoot (about 50 us of timer slack), short enough to cost little at low rates. */
    public static final long SPIN_NANOS = 80_000;

    /** A window the user gave, which {@code names} names the setting of. */
    public static SpinWindowChoice given(Duration window, SettingNames names) {
        return new SpinWindowChoice(window.toNanos(), "given (" + names.nameOf(Setting.SPIN_WINDOW) + ")");
    }

    /**
     * --spin-window auto, for a local broker this run started: spin where the load generator's
     * CPUs are apart from every CPU the broker's nodes may run on.
     */
    public static SpinWindowChoice forLocalBroker(CpuPlacement placement) {
        if (placement.broker() == null) {
            return forOtherBroker(true);
        }
        CpuList shared = placement.shared();
        if (shared == null) {
            return new SpinWindowChoice(SPIN_NANOS, "auto: spin, the load generator's CPUs (" + placement.generator()
                    + ") are apart from the broker's (" + placement.broker() + ")");
        }
        return new SpinWindowChoice(0, "auto: sleep, the producers share CPUs " + shared + " with the broker");
    }

    /**
     * --spin-window auto, for a broker this run did not start (--url), or none at all.
     *
     * @param brokerOnThisMachine whether the broker runs on this machine, on CPUs this run cannot know
     */
    public static SpinWindowChoice forOtherBroker(boolean brokerOnThisMachine) {
        return brokerOnThisMachine
                ? new SpinWindowChoice(0, "auto: sleep, the broker runs on this machine, on CPUs this run cannot know")
                : new SpinWindowChoice(SPIN_NANOS, "auto: spin, the broker runs on another machine");
    }

    /** --spin-window auto with no broker at all (loopback): nothing to take a core from. */
    public static SpinWindowChoice withoutBroker() {
        return new SpinWindowChoice(SPIN_NANOS, "auto: spin, there is no broker");
    }
}
