package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** `broker --isolate --clients N`: what it refuses before it makes any host or starts any broker. */
class BrokerCommandIsolateFlagsTest {

    /** What picocli adds to a flag error; --clients 0, refused where the hosts are made, comes without it. */
    private static final String HELP = " (see java -jar bench-all.jar broker --help)";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "nats --clients 4|--clients makes client hosts of --isolate; add --isolate" + HELP,
            "nats --isolate --clients 0|--clients takes 1 to 99 client hosts, got 0",
            "nats --link-rate 1gbit|--link-rate shapes the links between separate hosts; add --isolate" + HELP,
            "nats --isolate --link-jitter 1ms|--link-jitter varies --link-delay; give --link-delay too" + HELP,
            "nats --isolate --link-rate fast|--link-rate must be a rate in bits per second such as 1gbit, 100mbit or "
                    + "500kbit, got 'fast'" + HELP,
    })
    void aBadIsolationFlagIsOneLineNamingItExitingWith2(String flags, String message) {
        CliRun run = CliRun.of(("broker " + flags).split(" "));
        assertEquals(2, run.exitCode, run.toString());
        assertEquals("error: " + message, run.err.lines().findFirst().orElseThrow(), run.err);
        assertEquals(1, run.err.lines().count(), run.err);
    }
}
