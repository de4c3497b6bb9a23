package dev.msgbench.core.net;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;

/**
 * What every host link does to the packets it sends (--link-delay, --link-jitter, --link-loss,
 * --link-rate), applied on the egress of each host's end of its link: a message from a producer
 * through a broker to a consumer crosses two shaped links.
 *
 * @param delayNanos     added to every packet; 0 for none
 * @param jitterNanos    random variation of the delay (netem's normal-ish spread); 0 for none
 * @param lossPercent    packets dropped at random, 0 to 100; 0 for none
 * @param rateBitsPerSec the link's rate limit; 0 for none
 */
public record LinkShaping(long delayNanos, long jitterNanos, double lossPercent, long rateBitsPerSec) {

    public static final LinkShaping NONE = new LinkShaping(0, 0, 0, 0);

    /** tbf's latency: how long a packet may queue behind the rate limit before it is dropped. */
    private static final String TBF_LATENCY = "50ms";
    /** A tbf bucket must hold the largest packet, and veth hands over 64 KiB GSO packets. */
    private static final long MIN_BURST_BYTES = 70_000;
    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)([kmg]?)(bit|bps)?");
    private static final Pattern LOSS = Pattern.compile("(\\d+(?:\\.\\d+)?)%?");

    public LinkShaping {
        if (delayNanos < 0 || jitterNanos < 0 || rateBitsPerSec < 0 || !(lossPercent >= 0 && lossPercent <= 100)) {
            throw new IllegalArgumentException("link shaping out of range: " + this);
        }
    }

    /** Whether any setting needs netem: delay, jitter and loss do; a rate alone works with tbf. */
    public boolean needsNetem() {
        return delayNanos > 0 || jitterNanos > 0 || lossPercent > 0;
    }

    public boolean shapes() {
        return needsNetem() || rateBitsPerSec > 0;
    }

    /** The first setting that needs netem, for the message that refuses it. */
    public Setting firstNetemSetting() {
        return delayNanos > 0 ? Setting.LINK_DELAY : jitterNanos > 0 ? Setting.LINK_JITTER : Setting.LINK_LOSS;
    }

    /** The qdisc after {@code tc qdisc add dev DEV root}: netem for delay, jitter or loss, else tbf. */
    List<String> qdisc(boolean netem) {
        List<String> args = new ArrayList<>();
        if (netem) {
            args.add("netem");
            if (delayNanos > 0 || jitterNanos > 0) {
                args.addAll(List.of("delay", micros(delayNanos)));
                if (jitterNanos > 0) {
                    args.add(micros(jitterNanos));
                }
            }
            if (lossPercent > 0) {
                args.addAll(List.of("loss", String.format(Locale.US, "%s%%", lossPercent)));
            }
            if (rateBitsPerSec > 0) {
                args.addAll(List.of("rate", rateBitsPerSec + "bit"));
            }
        } else {
            args.addAll(List.of("tbf", "rate", rateBitsPerSec + "bit", "burst", Long.toString(burstBytes()),
                    "latency", TBF_LATENCY));
        }
        return args;
    }

    /** A quarter of a kernel tick (4 ms at HZ=250) of the rate, and never less than one GSO packet. */
    long burstBytes() {
        return Math.max(rateBitsPerSec / 8 / 250, MIN_BURST_BYTES);
    }

    /** As result.json records it. */
    public Map<String, Object> settings() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("delayNanos", delayNanos);
        s.put("jitterNanos", jitterNanos);
        s.put("lossPercent", lossPercent);
        s.put("rateBitsPerSec", rateBitsPerSec);
        return s;
    }

    /** For the summary: "delay 1ms, rate 1gbit (tbf)", or "none". */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (delayNanos > 0) {
            parts.add("delay " + micros(delayNanos));
        }
        if (jitterNanos > 0) {
            parts.add("jitter " + micros(jitterNanos));
        }
        if (lossPercent > 0) {
            parts.add(String.format(Locale.US, "loss %s%%", lossPercent));
        }
        if (rateBitsPerSec > 0) {
            parts.add("rate " + rateBitsPerSec + "bit" + (needsNetem() ? "" : " (tbf, burst " + burstBytes() + " B)"));
        }
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    private static String micros(long nanos) {
        return Math.max(1, Math.round(nanos / 1e3)) + "us";
    }

    /** @param text as tc writes rates: 1gbit, 100mbit, 500kbit, 1000000 (bits per second) */
    public static long parseRate(String flag, String text) {
        Matcher m = RATE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches() || "bps".equals(m.group(3))) {
            throw new UserError(flag + " must be a rate in bits per second such as 1gbit, 100mbit or 500kbit, got '"
                    + text + "'");
        }
        double factor = switch (m.group(2)) {
            case "k" -> 1e3;
            case "m" -> 1e6;
            case "g" -> 1e9;
            default -> 1;
        };
        long bits = Math.round(Double.parseDouble(m.group(1)) * factor);
        if (bits < 8_000) {
            throw new UserError(flag + " must be at least 8kbit, got '" + text + "'");
        }
        return bits;
    }

    /** @param text a percentage: 0.1%, 5% (the % may be left out) */
    public static double parseLoss(String flag, String text) {
        Matcher m = LOSS.matcher(text.trim());
        double percent = m.matches() ? Double.parseDouble(m.group(1)) : -1;
        if (percent <= 0 || percent > 100) {
            throw new UserError(flag + " must be a percentage above 0 and at most 100 such as 0.1%, got '" + text + "'");
        }
        return percent;
    }

    /** @param value a delay or jitter flag's value; must not be negative */
    public static long nanos(String flag, Duration value) {
        if (value == null) {
            return 0;
        }
        if (value.isNegative()) {
            throw new UserError(flag + " must not be negative, got " + value);
        }
        return value.toNanos();
    }
}
