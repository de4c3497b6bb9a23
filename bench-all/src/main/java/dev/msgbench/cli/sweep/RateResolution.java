package dev.msgbench.cli.sweep;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * How close a sweep's bisection brings the last passing rate and the first failing one: a share
 * of the passing rate ({@code 5%}) or a number of msg/s ({@code 500}).
 */
public record RateResolution(double amount, boolean percent, String text) {

    private static final Pattern SYNTAX = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(%?)");

    static RateResolution parse(String text) {
        Matcher m = SYNTAX.matcher(text.trim());
        if (m.matches()) {
            double amount = Double.parseDouble(m.group(1));
            boolean percent = !m.group(2).isEmpty();
            if (amount > 0 && (!percent || amount < 100)) {
                return new RateResolution(amount, percent, text.trim());
            }
        }
        throw new IllegalArgumentException("must be a share of the rate (5%, above 0 and below 100) or msg/s (500, above 0), "
                + "got '" + text + "'");
    }

    /** The widest gap between a passing rate and a failing one above it that the bisection leaves. */
    double widthAt(double passingRate) {
        return percent ? passingRate * amount / 100 : amount;
    }

    static final class Converter implements ITypeConverter<RateResolution> {
        @Override
        public RateResolution convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
