package dev.msgbench.cli.isolate;

import java.time.Duration;

import dev.msgbench.core.UserError;
import dev.msgbench.core.net.LinkShaping;
import dev.msgbench.core.system.TimeConverter;
import picocli.CommandLine.Option;

/**
 * The shaping of --isolate's host links: the same flags wherever hosts are made (e2e, throughput,
 * broker). A mixin inside the isolation options of each, which turn its one-line refusals into
 * their command's usage errors.
 */
public final class LinkOptions {

    @Option(names = "--link-delay", paramLabel = "TIME", converter = TimeConverter.class,
            description = "With --isolate: delay added to every packet a host sends (netem), e.g. 1ms.")
    Duration linkDelay;

    @Option(names = "--link-jitter", paramLabel = "TIME", converter = TimeConverter.class,
            description = "With --isolate: random variation of --link-delay (netem), e.g. 200us.")
    Duration linkJitter;

    @Option(names = "--link-loss", paramLabel = "PERCENT",
            description = "With --isolate: packets each host link drops at random (netem), e.g. 0.1%%.")
    String linkLoss;

    @Option(names = "--link-rate", paramLabel = "RATE",
            description = "With --isolate: each host link's rate limit (tbf, or netem where present), e.g. 1gbit.")
    String linkRate;

    /**
     * The shaping asked, checked against itself; whether the kernel can apply it is known once a
     * link exists.
     *
     * @param isolate whether --isolate was given: without it, any link flag is refused
     * @throws UserError naming the flag, the rule and the value
     */
    LinkShaping shaping(boolean isolate) {
        LinkShaping shaping = new LinkShaping(LinkShaping.nanos("--link-delay", linkDelay),
                LinkShaping.nanos("--link-jitter", linkJitter),
                linkLoss == null ? 0 : LinkShaping.parseLoss("--link-loss", linkLoss),
                linkRate == null ? 0 : LinkShaping.parseRate("--link-rate", linkRate));
        String given = linkDelay != null ? "--link-delay" : linkJitter != null ? "--link-jitter"
                : linkLoss != null ? "--link-loss" : linkRate != null ? "--link-rate" : null;
        if (!isolate && given != null) {
            throw new UserError(given + " shapes the links between separate hosts; add --isolate");
        }
        if (isolate && linkJitter != null && linkDelay == null) {
            throw new UserError("--link-jitter varies --link-delay; give --link-delay too");
        }
        return shaping;
    }
}
