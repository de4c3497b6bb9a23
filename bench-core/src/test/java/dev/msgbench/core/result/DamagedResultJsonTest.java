package dev.msgbench.core.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * result.json as a killed run, a full disk, a power cut or a hand edit leaves it: read, it names
 * the file and what is wrong on one line, where the reader would otherwise give Jackson's
 * message and a stack trace.
 */
class DamagedResultJsonTest {

    private static final String WHOLE = """
            {"schemaVersion": 2, "tool": "msgbench", "command": "e2e", "status": "complete", "system": "loopback",
             "workload": {"pacing": "fixed-rate", "rateMsgsPerSec": 1000.0, "durationSeconds": 2.0},
             "counts": {"sent": 100, "received": 100}, "faults": [{"event": {"kind": "kill"}}]}
            """;

    @TempDir
    Path dir;

    private String damage(String json) throws Exception {
        Files.writeString(dir.resolve(ResultFiles.RESULT_JSON), json, StandardCharsets.UTF_8);
        DamagedFile e = assertThrows(DamagedFile.class, () -> ResultFiles.readResult(dir));
        assertEquals("its summary and settings", e.leftOut());
        return e.getMessage();
    }

    private String file() {
        return dir.resolve(ResultFiles.RESULT_JSON).toString();
    }

    @Test
    void theWholeFileReads() throws Exception {
        Files.writeString(dir.resolve(ResultFiles.RESULT_JSON), WHOLE);
        assertEquals(100, ResultFiles.readResult(dir).counts().sent());
    }

    @Test
    void aFileCutShortSaysWhereItEnds() throws Exception {
        assertEquals(file() + ": truncated at byte 120 (a run killed, a full disk or a power cut while writing it?)",
                damage(WHOLE.substring(0, 120)));
    }

    @Test
    void anEmptyFileSaysSo() throws Exception {
        assertEquals(file() + ": empty (a run killed, a full disk or a power cut while writing it?)", damage(""));
    }

    @Test
    void aNumberFieldHoldingAStringNamesTheFieldAndBothTypes() throws Exception {
        assertEquals(file() + ": field workload.durationSeconds: expected a number, got a string (\"ten\")",
                damage(WHOLE.replace("\"durationSeconds\": 2.0", "\"durationSeconds\": \"ten\"")));
    }

    @Test
    void aNumberFieldHoldingAnObjectOrAListSaysSo() throws Exception {
        assertEquals(file() + ": field counts.sent: expected a number, got an object",
                damage(WHOLE.replace("\"sent\": 100", "\"sent\": {\"n\": 100}")));
        assertEquals(file() + ": field schemaVersion: expected a number, got a list",
                damage(WHOLE.replace("\"schemaVersion\": 2", "\"schemaVersion\": [2]")));
    }

    @Test
    void anObjectFieldHoldingANumberAndAStatusNoRunEndsWithSaySo() throws Exception {
        assertEquals(file() + ": field counts: expected an object, got a number",
                damage(WHOLE.replace("\"counts\": {\"sent\": 100, \"received\": 100}", "\"counts\": 7")));
        assertEquals(file() + ": field status: status must be complete, failed or interrupted, got 'done'",
                damage(WHOLE.replace("\"complete\"", "\"done\"")));
        assertEquals(file() + ": field faults[0].event: expected an object, got a string",
                damage(WHOLE.replace("{\"kind\": \"kill\"}", "\"kill\"")));
    }

    @Test
    void bytesAPowerCutLeftAreNotJsonAtTheirLine() throws Exception {
        // a file whose size reached the disk before its last block did: zeros where the bytes should be
        assertEquals(file() + ": not valid JSON at line 2, column 2: Illegal character ((CTRL-CHAR, code 0)): only "
                + "regular white space (\\r, \\n, \\t) is allowed between tokens",
                damage(WHOLE.substring(0, WHOLE.indexOf('\n') + 1) + "\0\0\0\0"));
    }
}
