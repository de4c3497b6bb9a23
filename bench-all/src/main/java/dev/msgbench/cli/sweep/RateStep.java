package dev.msgbench.cli.sweep;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** How a sweep raises its rate: {@code x2} multiplies, {@code +1000} adds (msg/s). */
public record RateStep(boolean multiply, double amount, String text) {

    private static final Pattern SYNTAX = Pattern.compile("([x+])([0-9]+(?:\\.[0-9]+)?)");

    static RateStep parse(String text) {
        Matcher m = SYNTAX.matcher(text.trim());
        if (m.matches()) {
            boolean multiply = m.group(1).equals("x");
            double amount = Double.parseDouble(m.group(2));
            if (multiply ? amount > 1 : amount > 0) {
                return new RateStep(multiply, amount, text.trim());
            }
        }
        throw new IllegalArgumentException("must be xFACTOR (multiply, FACTOR above 1, e.g. x2) or +RATE (add msg/s, "
                + "e.g. +1000), got '" + text + "'");
    }

    double next(double rate) {
        return multiply ? rate * amount : rate + amount;
    }

    static final class Converter implements ITypeConverter<RateStep> {
        @Override
        public RateStep convert(String value) {
            try {
                return parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
