package dev.msgbench.core.time;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.msgbench.core.units.Durations;

/**
 * A target rate that changes over time ({@code --rate-schedule}): steps and linear ramps, fixed
 * before the run. Rates are totals over all producer streams.
 *
 * <p>The schedule maps time to the number of messages due by then, {@link #countAt}: the integral
 * of the rate. Message {@code k} of the run (from 0) is due when that count reaches {@code k}
 * ({@link #offsetOfCount}), so uniform arrivals at a changing rate are exact, and Poisson arrivals
 * are unit-rate Poisson points in count space mapped back to time (an inhomogeneous Poisson process).
 *
 * <p>Grammar (whitespace is free):
 * <pre>
 * schedule := part ("," part)*
 * part     := RATE "for" TIME              a step: this rate for this long
 *           | RATE "to" RATE "over" TIME   a linear ramp
 *           | COUNT "x" "(" schedule ")"   the group, COUNT times in a row
 * RATE     := NUMBER "/s"                  messages per second, 0 for a pause
 * </pre>
 * e.g. {@code 1000/s for 30s, 1000/s to 5000/s over 30s, 3x(20000/s for 2s, 1000/s for 8s)}.
 */
public final class RateSchedule {

    /** More than this would make a schedule a user can no longer read in a result. */
    static final int MAX_SEGMENTS = 10_000;
    private static final double COUNT_TOLERANCE = 1e-6;

    /** One step ({@code fromMsgsPerSec == toMsgsPerSec}) or ramp. */
    public record Segment(double fromMsgsPerSec, double toMsgsPerSec, long durationNanos) {

        /** Messages due over the whole segment: the area under its rate. */
        public double messages() {
            return (fromMsgsPerSec + toMsgsPerSec) / 2 * (durationNanos / 1e9);
        }

        double countAt(long offsetNanos) {
            double s = offsetNanos / 1e9;
            return fromMsgsPerSec * s + (toMsgsPerSec - fromMsgsPerSec) * s * s / (2 * (durationNanos / 1e9));
        }

        double rateAt(long offsetNanos) {
            return fromMsgsPerSec + (toMsgsPerSec - fromMsgsPerSec) * offsetNanos / durationNanos;
        }

        /** Seconds into the segment at which {@code count} messages are due; 0 <= count <= messages(). */
        double secondsOfCount(double count) {
            if (count <= 0) {
                return 0;
            }
            double halfSlope = (toMsgsPerSec - fromMsgsPerSec) / (2 * (durationNanos / 1e9));
            // the root of halfSlope s^2 + from s - count = 0 in the form that does not cancel
            double discriminant = Math.max(0, fromMsgsPerSec * fromMsgsPerSec + 4 * halfSlope * count);
            return 2 * count / (fromMsgsPerSec + Math.sqrt(discriminant));
        }

        String spec() {
            return fromMsgsPerSec == toMsgsPerSec
                    ? rate(fromMsgsPerSec) + " for " + Durations.format(Duration.ofNanos(durationNanos))
                    : rate(fromMsgsPerSec) + " to " + rate(toMsgsPerSec) + " over " + Durations.format(Duration.ofNanos(durationNanos));
        }
    }

    private final List<Segment> segments;
    /** Messages due before each segment starts, and the total at the end. */
    private final double[] countBefore;
    private final long[] startNanos;

    public RateSchedule(List<Segment> segments) {
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("a rate schedule needs at least one part");
        }
        this.segments = List.copyOf(segments);
        this.countBefore = new double[segments.size() + 1];
        this.startNanos = new long[segments.size() + 1];
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            if (!(s.fromMsgsPerSec() >= 0) || !(s.toMsgsPerSec() >= 0) || Double.isInfinite(s.fromMsgsPerSec())
                    || Double.isInfinite(s.toMsgsPerSec()) || s.durationNanos() <= 0) {
                throw new IllegalArgumentException("rates must be 0 or more and times longer than 0, got '" + s.spec() + "'");
            }
            countBefore[i + 1] = countBefore[i] + s.messages();
            startNanos[i + 1] = Math.addExact(startNanos[i], s.durationNanos());
        }
    }

    /** @throws IllegalArgumentException naming the rule broken and the part that broke it */
    public static RateSchedule parse(String spec) {
        return new RateSchedule(new Parser(spec).schedule());
    }

    public List<Segment> segments() {
        return segments;
    }

    public long durationNanos() {
        return startNanos[segments.size()];
    }

    /** Messages due over the whole schedule (a count of all producers together; may have a fraction). */
    public double totalMessages() {
        return countBefore[segments.size()];
    }

    public double meanRateMsgsPerSec() {
        return totalMessages() / (durationNanos() / 1e9);
    }

    public double firstRateMsgsPerSec() {
        return segments.get(0).fromMsgsPerSec();
    }

    /** The highest rate anywhere in the schedule. */
    public double peakRateMsgsPerSec() {
        return segments.stream().mapToDouble(s -> Math.max(s.fromMsgsPerSec(), s.toMsgsPerSec())).max().orElse(0);
    }

    /** Messages due from the start to {@code offsetNanos}; the total after the end. */
    public double countAt(long offsetNanos) {
        if (offsetNanos <= 0) {
            return 0;
        }
        int i = segmentAt(offsetNanos);
        if (i == segments.size()) {
            return totalMessages();
        }
        return countBefore[i] + segments.get(i).countAt(offsetNanos - startNanos[i]);
    }

    /** The target rate at {@code offsetNanos}; 0 outside the schedule. */
    public double rateAt(long offsetNanos) {
        if (offsetNanos < 0) {
            return 0;
        }
        int i = segmentAt(offsetNanos);
        return i == segments.size() ? 0 : segments.get(i).rateAt(offsetNanos - startNanos[i]);
    }

    /**
     * When the count of due messages reaches {@code count}, in nanoseconds from the start; -1 when
     * the schedule ends first (count at or past {@link #totalMessages()}).
     */
    public long offsetOfCount(double count) {
        // a schedule scaled to a worker's share and back may end a rounding error past a whole count
        if (count >= totalMessages() - COUNT_TOLERANCE) {
            return -1;
        }
        // the segment in which the count is reached: a pause (no messages) is never it
        int low = 0;
        int high = segments.size() - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (countBefore[mid] <= count) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        while (countBefore[low + 1] <= count) {
            low++;
        }
        Segment s = segments.get(low);
        long within = Math.round(s.secondsOfCount(count - countBefore[low]) * 1e9);
        return startNanos[low] + Math.min(within, s.durationNanos() - 1);
    }

    /** The same shape at {@code factor} times every rate: one worker's share of a split run. */
    public RateSchedule scaled(double factor) {
        List<Segment> out = new ArrayList<>();
        for (Segment s : segments) {
            out.add(new Segment(s.fromMsgsPerSec() * factor, s.toMsgsPerSec() * factor, s.durationNanos()));
        }
        return new RateSchedule(out);
    }

    /** This schedule after a lead of {@code leadNanos} at its first rate: the warm-up before it. */
    public RateSchedule afterLead(long leadNanos) {
        if (leadNanos <= 0) {
            return this;
        }
        List<Segment> out = new ArrayList<>();
        out.add(new Segment(firstRateMsgsPerSec(), firstRateMsgsPerSec(), leadNanos));
        out.addAll(segments);
        return new RateSchedule(out);
    }

    /** The canonical spec, every repeat written out: what result.json records. */
    public String spec() {
        List<String> parts = new ArrayList<>();
        segments.forEach(s -> parts.add(s.spec()));
        return String.join(", ", parts);
    }

    /** The segments as result.json lists them, with their start and message count. */
    public List<Map<String, Object>> describe() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("startSeconds", startNanos[i] / 1e9);
            m.put("durationSeconds", s.durationNanos() / 1e9);
            m.put("fromMsgsPerSec", s.fromMsgsPerSec());
            m.put("toMsgsPerSec", s.toMsgsPerSec());
            m.put("messages", s.messages());
            out.add(Collections.unmodifiableMap(m));
        }
        return out;
    }

    /** The segments as {@link #describe()} wrote them. */
    public static RateSchedule fromDescription(List<Map<String, Object>> described) {
        List<Segment> out = new ArrayList<>();
        for (Map<String, Object> m : described) {
            out.add(new Segment(((Number) m.get("fromMsgsPerSec")).doubleValue(),
                    ((Number) m.get("toMsgsPerSec")).doubleValue(),
                    Math.round(((Number) m.get("durationSeconds")).doubleValue() * 1e9)));
        }
        return new RateSchedule(out);
    }

    private int segmentAt(long offsetNanos) {
        int i = 0;
        while (i < segments.size() && offsetNanos >= startNanos[i + 1]) {
            i++;
        }
        return i;
    }

    @Override
    public String toString() {
        return spec();
    }

    private static String rate(double msgsPerSec) {
        return (msgsPerSec == Math.rint(msgsPerSec) && msgsPerSec < 1e15
                ? Long.toString((long) msgsPerSec) : Double.toString(msgsPerSec)) + "/s";
    }

    /** Recursive descent over the grammar in the class comment. */
    private static final class Parser {

        private static final String PART = "'RATE/s for TIME', 'RATE/s to RATE/s over TIME' or 'N x (...)'";

        private final String text;
        private int pos;

        Parser(String text) {
            this.text = text;
        }

        List<Segment> schedule() {
            List<Segment> out = group();
            skipSpace();
            if (pos < text.length()) {
                throw error("unexpected '" + text.substring(pos) + "'");
            }
            return out;
        }

        private List<Segment> group() {
            List<Segment> out = new ArrayList<>();
            part(out);
            skipSpace();
            while (peek(',')) {
                pos++;
                part(out);
                skipSpace();
            }
            return out;
        }

        private void part(List<Segment> out) {
            skipSpace();
            int start = pos;
            String number = number();
            skipSpace();
            if (number != null && peek('x')) {
                pos++;
                skipSpace();
                if (!peek('(')) {
                    throw error("a repeat is 'N x (PARTS)', got '" + rest(start) + "'");
                }
                pos++;
                long times = wholeNumber(number, start);
                List<Segment> group = group();
                skipSpace();
                if (!peek(')')) {
                    throw error("missing ')' after '" + text.substring(start, pos) + "'");
                }
                pos++;
                if (times * group.size() + out.size() > MAX_SEGMENTS) {
                    throw error("at most " + MAX_SEGMENTS + " steps and ramps in all, got " + times + " x "
                            + group.size() + " in '" + text.substring(start, pos) + "'");
                }
                for (long i = 0; i < times; i++) {
                    out.addAll(group);
                }
                return;
            }
            double from = rate(number, start);
            String word = word();
            if (word.equals("for")) {
                out.add(new Segment(from, from, time(start)));
            } else if (word.equals("to")) {
                skipSpace();
                double to = rate(number(), start);
                if (!word().equals("over")) {
                    throw error("a ramp is 'RATE/s to RATE/s over TIME', got '" + rest(start) + "'");
                }
                out.add(new Segment(from, to, time(start)));
            } else {
                throw error("expected " + PART + ", got '" + rest(start) + "'");
            }
            if (out.size() > MAX_SEGMENTS) {
                throw error("at most " + MAX_SEGMENTS + " steps and ramps in all");
            }
        }

        private double rate(String number, int start) {
            skipSpace();
            if (number == null || !text.startsWith("/s", pos)) {
                throw error("expected " + PART + ", got '" + rest(start) + "'");
            }
            pos += 2;
            double rate = Double.parseDouble(number);
            if (Double.isInfinite(rate)) {
                throw error("a rate must be finite, got '" + number + "/s'");
            }
            return rate;
        }

        private long time(int start) {
            skipSpace();
            int from = pos;
            while (pos < text.length() && text.charAt(pos) != ',' && text.charAt(pos) != ')') {
                pos++;
            }
            String value = text.substring(from, pos).trim();
            long nanos;
            try {
                nanos = Durations.parse(value).toNanos();
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw error("'" + text.substring(start, pos).trim() + "': " + e.getMessage());
            }
            if (nanos <= 0) {
                throw error("a time must be longer than 0, got '" + text.substring(start, pos).trim() + "'");
            }
            return nanos;
        }

        private long wholeNumber(String number, int start) {
            if (!number.matches("\\d+") || number.length() > 6 || Long.parseLong(number) < 1) {
                throw error("a repeat count is a whole number from 1, got '" + rest(start) + "'");
            }
            return Long.parseLong(number);
        }

        private String number() {
            int from = pos;
            while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
                pos++;
            }
            String n = text.substring(from, pos);
            return n.isEmpty() || n.equals(".") || n.chars().filter(c -> c == '.').count() > 1 ? null : n;
        }

        private String word() {
            skipSpace();
            int from = pos;
            while (pos < text.length() && Character.isLetter(text.charAt(pos))) {
                pos++;
            }
            return text.substring(from, pos).toLowerCase(Locale.ROOT);
        }

        private boolean peek(char c) {
            return pos < text.length() && Character.toLowerCase(text.charAt(pos)) == c;
        }

        private void skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private String rest(int start) {
            int end = text.indexOf(',', start);
            return text.substring(start, end < 0 ? text.length() : end).trim();
        }

        private IllegalArgumentException error(String message) {
            return new IllegalArgumentException(message);
        }
    }
}
