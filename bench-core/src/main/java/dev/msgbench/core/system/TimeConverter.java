package dev.msgbench.core.system;

import java.time.Duration;

import dev.msgbench.core.units.Durations;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A flag's time, as every flag of the suite writes it: 500us, 100ms, 30s, 2m. */
public final class TimeConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
