package dev.msgbench.cli.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.msgbench.core.fault.FaultKind;
import dev.msgbench.core.fault.FaultSpec;
import dev.msgbench.core.run.Backlog;
import dev.msgbench.core.time.RateSchedule;
import dev.msgbench.core.units.Durations;

/**
 * --scale: a quick look at a long experiment. Multiplies the measured time, the warm-up,
 * message counts, a backlog (built at the run's rate), each part of a rate schedule and a fault's
 * time (and how long it lasts), never rates, sizes or
 * anything else, so that each cell still runs the published load, only for less time. A scaled value never drops below 1 s or 1 message
 * (or below the original, if that was already shorter): a cell must still measure something.
 * A warm-up of whole seconds stays whole seconds. An automatic warm-up ({@code auto}) is not
 * scaled at all: it lasts until the system has settled, whatever the factor.
 */
public final class Scaling {

    /** The flags that say how long a cell runs. */
    static final List<String> TIME_KEYS = List.of("warmup", "duration");
    static final String MESSAGES = "messages";
    static final String BACKLOG = "backlog";
    static final String RATE_SCHEDULE = "rate-schedule";
    static final String FAULT = "fault";
    private static final Duration FLOOR = Duration.ofSeconds(1);

    private Scaling() {
    }

    /**
     * @param defaultMessages what the command sends when a cell gives neither messages nor
     *                        duration; scaled like a given count
     */
    public static Cell scale(Cell cell, double factor, FlagCatalog catalog, long defaultMessages) {
        if (factor == 1) {
            return cell;
        }
        List<Setting> settings = new ArrayList<>(cell.settings());
        for (String key : TIME_KEYS) {
            if (!catalog.has(key)) {
                continue;
            }
            Setting given = cell.setting(key);
            if (given == null && key.equals("duration") && cell.setting(RATE_SCHEDULE) != null) {
                continue; // the schedule is the measured time: a duration beside it is an error
            }
            String text = given != null ? scalarText(given) : catalog.defaultValue(key);
            if (text == null) {
                continue;
            }
            String scaled;
            try {
                scaled = key.equals("warmup") ? WarmupSpec.parse(text).scaled(factor).text()
                        : Durations.format(duration(Durations.parse(text), factor));
            } catch (IllegalArgumentException e) {
                continue; // left as written, for the command's own error
            }
            put(settings, new Setting(key, new FlagValue.Scalar(scaled, FlagValue.Type.TEXT),
                    given != null ? given.origin() : new Origin("--scale")));
        }
        if (catalog.has(MESSAGES)) {
            Setting given = cell.setting(MESSAGES);
            if (given != null || cell.setting("duration") == null) {
                String text = given != null ? scalarText(given) : Long.toString(defaultMessages);
                try {
                    long scaled = messages(Long.parseLong(text), factor);
                    put(settings, new Setting(MESSAGES, new FlagValue.Scalar(Long.toString(scaled), FlagValue.Type.NUMBER),
                            given != null ? given.origin() : new Origin("--scale")));
                } catch (NumberFormatException e) {
                    // left as written, for the command's own error
                }
            }
        }
        scaleBacklog(cell, factor, catalog, settings);
        scaleRateSchedule(cell, factor, catalog, settings);
        scaleFaults(cell, factor, catalog, settings);
        return cell.withSettings(settings);
    }

    /**
     * Each part of a schedule lasts the factor times as long, at its own rates, so the shape (a
     * ramp, a burst between calm parts) survives a quick look; each part keeps at least
     * min(its length, 1 s), as a duration does.
     */
    private static void scaleRateSchedule(Cell cell, double factor, FlagCatalog catalog, List<Setting> settings) {
        Setting given = cell.setting(RATE_SCHEDULE);
        if (!catalog.has(RATE_SCHEDULE) || given == null || scalarText(given) == null) {
            return;
        }
        try {
            List<RateSchedule.Segment> scaled = new ArrayList<>();
            for (RateSchedule.Segment part : RateSchedule.parse(scalarText(given)).segments()) {
                long nanos = duration(Duration.ofNanos(part.durationNanos()), factor).toNanos();
                scaled.add(new RateSchedule.Segment(part.fromMsgsPerSec(), part.toMsgsPerSec(), nanos));
            }
            put(settings, new Setting(RATE_SCHEDULE, new FlagValue.Scalar(new RateSchedule(scaled).spec(),
                    FlagValue.Type.TEXT), given.origin()));
        } catch (IllegalArgumentException e) {
            // left as written, for the command's own error
        }
    }

    /**
     * A fault falls at the same share of a shorter run: its time, and how long a pause, a
     * partition or a sick disk lasts, times the factor, as a duration is. What the system takes
     * to come back is not the run's to shorten: restart-after and a slow disk's delay stay.
     */
    private static void scaleFaults(Cell cell, double factor, FlagCatalog catalog, List<Setting> settings) {
        Setting given = cell.setting(FAULT);
        if (!catalog.has(FAULT) || given == null) {
            return;
        }
        FlagValue scaled;
        if (given.value() instanceof FlagValue.Scalar scalar) {
            scaled = new FlagValue.Scalar(scaledFault(scalar.text(), factor), scalar.type());
        } else if (given.value() instanceof FlagValue.Items items) {
            scaled = new FlagValue.Items(items.items().stream()
                    .map(i -> new FlagValue.Scalar(scaledFault(i.text(), factor), i.type())).toList());
        } else {
            return;
        }
        put(settings, new Setting(FAULT, scaled, given.origin()));
    }

    /** One --fault value with its timeline scaled; left as written if it does not parse (the command says why). */
    public static String scaledFault(String text, double factor) {
        FaultSpec spec;
        try {
            spec = FaultSpec.parse(text);
        } catch (RuntimeException e) {
            return text;
        }
        int at = text.indexOf('@');
        String head = text.substring(0, at);
        if (spec.kind() == FaultKind.EXEC) {
            return head + "@" + Durations.format(duration(spec.at(), factor)) + text.substring(text.indexOf('=', at));
        }
        if (spec.kind().lasts() && !spec.kind().sickensDisk()) {
            head = spec.kind().label() + "=" + Durations.format(duration(spec.pause(), factor));
        }
        StringBuilder b = new StringBuilder(head).append('@').append(Durations.format(duration(spec.at(), factor)));
        String[] options = text.substring(at + 1).split(":", -1);
        for (int i = 1; i < options.length; i++) {
            b.append(':').append(options[i].startsWith("for=")
                    ? "for=" + Durations.format(duration(spec.pause(), factor)) : options[i]);
        }
        return b.toString();
    }

    /** A backlog is built at the run's rate: a shorter run builds a smaller one. */
    private static void scaleBacklog(Cell cell, double factor, FlagCatalog catalog, List<Setting> settings) {
        Setting given = cell.setting(BACKLOG);
        if (!catalog.has(BACKLOG) || given == null) {
            return;
        }
        try {
            String scaled = Backlog.parse(scalarText(given)).scaled(factor).flagText();
            put(settings, new Setting(BACKLOG, new FlagValue.Scalar(scaled, FlagValue.Type.TEXT), given.origin()));
        } catch (IllegalArgumentException e) {
            // left as written, for the command's own error
        }
    }

    /** A duration times the factor, to the millisecond, at least min(original, 1 s); 0 stays 0. */
    static Duration duration(Duration original, double factor) {
        if (original.isZero()) {
            return original;
        }
        long millis = Math.round(original.toNanos() * factor / 1e6);
        Duration floor = original.compareTo(FLOOR) < 0 ? original : FLOOR;
        Duration scaled = Duration.ofMillis(millis);
        return scaled.compareTo(floor) < 0 ? floor : scaled;
    }

    /**
     * A warm-up times the factor, to the second: the interval log's histograms are a second
     * each from the start, so a warm-up of whole seconds ends on an interval boundary, and the
     * repetitions of a cell can be added from the measured intervals alone.
     */
    static Duration warmup(Duration original, double factor) {
        Duration scaled = duration(original, factor);
        if (original.isZero() || original.toNanos() % 1_000_000_000L != 0) {
            return scaled;
        }
        return Duration.ofSeconds(Math.max(1, Math.round(scaled.toNanos() / 1e9)));
    }

    /** A count times the factor, rounded, at least 1. */
    static long messages(long original, double factor) {
        return Math.max(Math.min(original, 1), Math.round(original * factor));
    }

    public static String describe(double factor) {
        return factor == Math.rint(factor) ? Long.toString((long) factor) : String.format(Locale.US, "%s", factor);
    }

    private static String scalarText(Setting setting) {
        return setting.value() instanceof FlagValue.Scalar scalar ? scalar.text() : null;
    }

    private static void put(List<Setting> settings, Setting setting) {
        for (int i = 0; i < settings.size(); i++) {
            if (settings.get(i).key().equals(setting.key())) {
                settings.set(i, setting);
                return;
            }
        }
        settings.add(setting);
    }
}
