package dev.msgbench.core.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.SettingNames;

class SpinWindowChoiceTest {

    @Test
    void producersSpinOnlyWhereTheirCpusAreApartFromTheBrokers() {
        assertEquals(new SpinWindowChoice(80_000, "auto: spin, the load generator's CPUs (1) are apart from the broker's (0)"),
                SpinWindowChoice.forLocalBroker(new CpuPlacement(CpuList.parse("1"), CpuList.parse("0"))));
        assertEquals(new SpinWindowChoice(0, "auto: sleep, the producers share CPUs 1 with the broker"),
                SpinWindowChoice.forLocalBroker(new CpuPlacement(CpuList.parse("1-2"), CpuList.parse("0-1"))));
    }

    @Test
    void aBrokerThisRunDidNotStartIsSharedWhenItIsOnThisMachine() {
        assertEquals(0, SpinWindowChoice.forOtherBroker(true).nanos());
        assertEquals(80_000, SpinWindowChoice.forOtherBroker(false).nanos());
        assertEquals(80_000, SpinWindowChoice.withoutBroker().nanos());
    }

    @Test
    void aGivenWindowIsKeptAsGiven() {
        assertEquals(new SpinWindowChoice(300_000, "given (spin-window)"),
                SpinWindowChoice.given(Duration.ofNanos(300_000), SettingNames.KEYS));
    }
}
