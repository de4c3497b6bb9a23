package dev.msgbench.cli;

import java.time.Duration;

import dev.msgbench.cli.measure.MessageOptions;
import dev.msgbench.cli.measure.SpinWindowOption;
import dev.msgbench.cli.workload.WarmupSpec;
import dev.msgbench.core.cpu.CpuAffinity;
import dev.msgbench.core.cpu.CpuList;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.payload.MessageSizes;
import dev.msgbench.core.payload.PayloadContent;
import dev.msgbench.core.time.RateSchedule;
import dev.msgbench.core.units.Durations;
import dev.msgbench.core.units.Sizes;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Picocli converters for values with units and the suite's own types; picocli names the flag in the error. */
public final class Converters {

    private Converters() {
    }

    public static final class Size implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Sizes.parseBytes(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** --size: one size or a distribution of sizes. */
    public static final class SizeDistribution implements ITypeConverter<MessageSizes> {
        @Override
        public MessageSizes convert(String value) {
            try {
                return MessageSizes.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** --payload: random, compressible:R, or files read here, so a missing one is refused before anything starts. */
    public static final class Payload implements ITypeConverter<PayloadContent> {
        @Override
        public PayloadContent convert(String value) {
            try {
                return PayloadContent.parse(value, MessageOptions.MAX_SIZE_BYTES);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** --rate-schedule. */
    public static final class Schedule implements ITypeConverter<RateSchedule> {
        @Override
        public RateSchedule convert(String value) {
            try {
                return RateSchedule.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage() + " (in '" + value + "')");
            }
        }
    }

    /** --warmup: a time, auto or auto:MAX. */
    public static final class Warmup implements ITypeConverter<WarmupSpec> {
        @Override
        public WarmupSpec convert(String value) {
            try {
                return WarmupSpec.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** --spin-window: a time, or auto. */
    public static final class SpinWindow implements ITypeConverter<SpinWindowOption> {
        @Override
        public SpinWindowOption convert(String value) {
            if (value.equals("auto")) {
                return SpinWindowOption.AUTO;
            }
            try {
                return new SpinWindowOption(Durations.parse(value));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage() + " and not auto");
            }
        }
    }

    /** A CPU list every CPU of which this machine has online: checked before anything starts. */
    public static final class Cpus implements ITypeConverter<CpuList> {
        @Override
        public CpuList convert(String value) {
            try {
                CpuList cpus = CpuList.parse(value);
                CpuAffinity.requireOnline(cpus, value);
                return cpus;
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** --acks, parsed once here: each system then maps the value to its own setting, or refuses it. */
    public static final class AcksValue implements ITypeConverter<Acks> {
        @Override
        public Acks convert(String value) {
            try {
                return Acks.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
