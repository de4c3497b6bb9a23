package dev.msgbench.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A result.json of schema 1 (flat fields, one loss count) read as today's result. */
class ResultSchemaV1Test {

    @TempDir
    Path dir;

    private RunResult readV1(long lost) throws Exception {
        Files.writeString(dir.resolve(ResultFiles.RESULT_JSON), """
                {"schemaVersion": 1, "tool": "msgbench", "command": "e2e", "status": "failed", "error": "gone",
                 "sent": 100, "acknowledged": 98, "sendErrors": 2, "received": %d, "lost": %d, "duplicated": 3,
                 "reordered": 4, "late": 5, "unsent": 6, "foreign": 7, "measuredSent": 80,
                 "targetRate": 100.0, "achievedRate": 99.5, "receivedRate": 98.5, "targetRateMissed": true,
                 "maxBehindScheduleMs": 1.5, "latencyMs": {"p50": 1.0}, "serviceMs": {"p50": 0.5},
                 "sendDelayMs": {"p50": 0.1}, "ackMs": {}, "warnings": ["target rate missed"]}
                """.formatted(100 - lost, lost));
        return ResultFiles.readResult(dir);
    }

    @Test
    void everyFlatFieldIsReadIntoItsPlace() throws Exception {
        RunResult r = readV1(0);

        assertEquals(1, r.schemaVersion(), "what the file says");
        assertEquals(RunStatus.FAILED, r.status());
        assertEquals(new Counts(100, 98, 2, 100, 0, 0, 3, 4, 5, 6, 7, 80), r.counts());
        assertEquals(new Rates(100.0, 99.5, 98.5, true, 1.5), r.rates());
        assertEquals(new Latencies(Map.of("p50", 1.0), Map.of("p50", 0.5), Map.of("p50", 0.1), Map.of()), r.latenciesMs());
        assertEquals(List.of("target rate missed"), r.warnings());
    }

    @Test
    void itsLossesReadAsUnacknowledgedWithAWarningThatTheyWereNeverSplit() throws Exception {
        RunResult r = readV1(1_234);

        assertEquals(List.of(0L, 1_234L), List.of(r.counts().acknowledgedLost(), r.counts().unacknowledgedLost()));
        assertEquals(List.of("target rate missed", "schema 1 result: its 1,234 lost messages are not split into "
                + "acknowledged and unacknowledged; re-run to tell a broken promise from an allowed loss"), r.warnings());
    }
}
