package dev.msgbench.core.system;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * What a native tool's run measured.
 *
 * @param msgsPerSec     the rate the side is compared on, as the tool printed it where it printed
 *                       one (so that "26906.312221" stays exactly that in the comparison's files)
 * @param publishSeconds the seconds all of the run's publishing took, warm-up included, when the
 *                       broker served more messages than the measured ones (ProducerPerformance
 *                       with --warmup-records); null when the measured count over the rate says it
 */
public record NativeFigure(BigDecimal msgsPerSec, BigDecimal publishSeconds) {

    public NativeFigure {
        Objects.requireNonNull(msgsPerSec, "msgsPerSec");
    }

    public static NativeFigure of(String msgsPerSec) {
        return new NativeFigure(new BigDecimal(msgsPerSec), null);
    }
}
