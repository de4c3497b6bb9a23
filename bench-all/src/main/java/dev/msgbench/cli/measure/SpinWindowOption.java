package dev.msgbench.cli.measure;

import java.time.Duration;

import dev.msgbench.cli.FlagNames;
import dev.msgbench.core.broker.LocalBroker;
import dev.msgbench.core.cpu.CpuPlacement;
import dev.msgbench.core.cpu.SpinWindowChoice;
import dev.msgbench.core.net.UrlHosts;

/**
 * --spin-window: a time, or auto ({@link SpinWindowChoice}), chosen once the broker is known.
 *
 * @param given the time asked for; null for auto
 */
public record SpinWindowOption(Duration given) {

    public static final SpinWindowOption AUTO = new SpinWindowOption(null);

    /**
     * @param needsBroker whether the system has a broker at all (loopback has none)
     * @param broker      the local broker this run started, or null
     * @param url         what the clients connect to
     */
    public SpinWindowChoice choose(boolean needsBroker, LocalBroker broker, String url) {
        if (given != null) {
            return SpinWindowChoice.given(given, FlagNames.FLAGS);
        }
        if (!needsBroker) {
            return SpinWindowChoice.withoutBroker();
        }
        CpuPlacement placement = broker == null ? null : CpuPlacement.of(broker.processes().nodes());
        if (placement != null) {
            return SpinWindowChoice.forLocalBroker(placement);
        }
        return SpinWindowChoice.forOtherBroker(UrlHosts.anyOnThisMachine(url));
    }
}
