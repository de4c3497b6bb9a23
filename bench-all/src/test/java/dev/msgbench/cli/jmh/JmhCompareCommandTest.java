package dev.msgbench.cli.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URISyntaxException;
import java.nio.file.Path;

import dev.msgbench.cli.CliRun;
import org.junit.jupiter.api.Test;

class JmhCompareCommandTest {

    private static String fixture(String name) throws URISyntaxException {
        return Path.of(JmhCompareCommandTest.class.getResource("/jmh/" + name).toURI()).toString();
    }

    @Test
    void eachBenchmarkShowsBothScoresTheRatioAndWhetherTheDifferenceIsNoise() throws Exception {
        String a = fixture("a.json");
        String b = fixture("b.json");
        CliRun run = CliRun.of("jmh-compare", a, b);

        assertEquals(0, run.exitCode, run.toString());
        assertEquals(String.join("\n",
                "A: " + a,
                "B: " + b,
                "errors: JMH's 99.9% confidence half-widths; \"within noise\" when the intervals overlap",
                "benchmark                      params                    mode                      A                         B    B/A  verdict       alloc B/op A -> B",
                "EnginePathBenchmark.wholePath  sizeBytes=100             avgt      300 ± 10.00 ns/op        90.00 ± 5.00 ns/op  0.300  B better      0.0400 -> 0.0000",
                "EnginePathBenchmark.record     sizeBytes=100             avgt     20.00 ± 2.00 ns/op        21.00 ± 2.00 ns/op  1.050  within noise  - -> -",
                "KafkaSendBenchmark.send        acks=1,payloadBytes=1024  thrpt  50,000 ± 1,000 ops/s      40,000 ± 1,000 ops/s  0.800  B worse       - -> -",
                "KafkaSendBenchmark.gone        -                         thrpt        5.00 ± ? ops/s                         -      -  only in A     - -> -",
                "CorePublishBenchmark.publish   -                         thrpt                     -  1,000,000 ± 20,000 ops/s      -  only in B     - -> -",
                ""), run.out.replace(System.lineSeparator(), "\n"));
    }

    @Test
    void aMissingFileIsOneLineNamingIt() {
        CliRun run = CliRun.of("jmh-compare", "no-such-a.json", "no-such-b.json");

        assertEquals(2, run.exitCode);
        assertEquals("error: jmh-compare: no file no-such-a.json; give two JMH JSON files (mvn verify -Pbench writes them to jmh-results/)\n",
                run.err.replace(System.lineSeparator(), "\n"));
    }
}
