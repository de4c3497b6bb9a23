package dev.msgbench.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

class EnvironmentTest {

    @Test
    void anX86ProcessorIsNamedByItsFirstModelName() {
        String cpuInfo = String.join("\n",
                "processor\t: 0",
                "vendor_id\t: GenuineIntel",
                "model\t\t: 167",
                "model name\t: Intel(R) Xeon(R) Processor",
                "",
                "processor\t: 1",
                "model name\t: Intel(R) Xeon(R) Processor",
                "");

        assertEquals("Intel(R) Xeon(R) Processor", Environment.cpuModel(cpuInfo));
    }

    @Test
    void anArmBoardWithoutAModelNameIsNamedByItsModelOrHardware() {
        String pi = String.join("\n",
                "processor\t: 0",
                "BogoMIPS\t: 108.00",
                "CPU implementer\t: 0x41",
                "",
                "Hardware\t: BCM2835",
                "Model\t\t: Raspberry Pi 4 Model B Rev 1.4",
                "");

        assertEquals("BCM2835", Environment.cpuModel(pi));
    }

    @Test
    void noModelAtAllIsNullNotAGuess() {
        assertNull(Environment.cpuModel(""));
        assertNull(Environment.cpuModel("processor\t: 0\nmodel name\t:\nBogoMIPS\t: 50.00\n"));
    }

    @Test
    void everyResultNamesTheProcessorAndTheClockSourceKeys() {
        Map<String, Object> env = Environment.describe();

        assertTrue(env.containsKey("cpuModel"), env.toString());
        assertTrue(env.containsKey("clockSource"), env.toString());
    }
}
