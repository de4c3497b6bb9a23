package dev.msgbench.core.run;

import java.util.List;

import dev.msgbench.core.cpu.CpuPlacement;
import dev.msgbench.core.cpu.CpuSnapshot;
import dev.msgbench.core.cpu.CpuTimes;
import dev.msgbench.core.cpu.CpuWatch;
import dev.msgbench.core.time.NanoClock;

/**
 * A machine of two CPUs whose use never changes, on a run's clock: each CPU busy {@code busyShare}
 * of the time, this JVM using {@code generatorCores}, one broker node {@code brokerCores}.
 */
final class SteadyCpuWatch implements CpuWatch {

    private final NanoClock clock;
    private final double busyShare;
    private final double generatorCores;
    private final double brokerCores;
    private final CpuPlacement placement;

    SteadyCpuWatch(NanoClock clock, double busyShare, double generatorCores, double brokerCores, CpuPlacement placement) {
        this.clock = clock;
        this.busyShare = busyShare;
        this.generatorCores = generatorCores;
        this.brokerCores = brokerCores;
        this.placement = placement;
    }

    @Override
    public CpuSnapshot snapshot() {
        long now = clock.nanoTime();
        double ticks = now / 1e9 * CpuTimes.TICKS_PER_SECOND;
        long busy = Math.round(busyShare * ticks);
        long idle = Math.round(ticks) - busy;
        CpuTimes machine = new CpuTimes(List.of(new CpuTimes.Cpu(0, idle, 0, 0), new CpuTimes.Cpu(1, idle, 0, 0)), true);
        return new CpuSnapshot(now, machine, Math.round(generatorCores * now),
                List.of(new CpuSnapshot.NodeTicks(4242, Math.round(brokerCores * ticks))), 0, 0);
    }

    @Override
    public CpuPlacement placement() {
        return placement;
    }
}
