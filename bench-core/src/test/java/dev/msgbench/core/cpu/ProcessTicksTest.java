package dev.msgbench.core.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ProcessTicksTest {

    @Test
    void theTimesAreFieldsFourteenToSeventeenCountedFromTheLastParenthesis() {
        // a command name may hold spaces and ") ": only the last ')' ends it
        String stat = "4242 (a) (b c) S 1 4242 4242 0 -1 4194304 101 0 0 0 7 3 2 1 20 0 1 0 211559 3133440 387";

        assertEquals(7 + 3 + 2 + 1, ProcessTicks.parse(stat));
    }

    @Test
    void aLineWithTooFewFieldsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ProcessTicks.parse("4242 (a) S 1 4242"));
    }

    @Test
    void aProcessThatIsGoneHasNoTicks() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();

        assertEquals(ProcessTicks.GONE, ProcessTicks.of(ended.pid()));
        assertEquals(ProcessTicks.GONE, ProcessTicks.ofTree(ended.pid()));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aTreeCountsTheProcessesItStartedThatStillRun() throws Exception {
        // sh starts a child that burns CPU, so the tree has more ticks than sh alone once the child has some
        Process sh = new ProcessBuilder("sh", "-c", "sh -c 'while :; do :; done' & wait").start();
        try {
            long tree;
            long own;
            do {
                own = ProcessTicks.of(sh.pid());
                tree = ProcessTicks.ofTree(sh.pid());
                Thread.onSpinWait();
            } while (tree <= own);
            assertTrue(tree > own, tree + " against " + own);
            assertTrue(own >= 0);
        } finally {
            sh.descendants().forEach(ProcessHandle::destroyForcibly);
            sh.destroyForcibly();
        }
    }
}
