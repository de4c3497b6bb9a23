package dev.msgbench.core.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SequenceTrackerTest {

    @Test
    void inOrderMessagesAreUniqueWithNoGaps() {
        SequenceTracker t = new SequenceTracker(64);
        for (long s = 0; s < 1_000; s++) {
            assertTrue(t.receive(s, 0));
        }
        assertEquals(1_000, t.unique);
        assertEquals(0, t.duplicates + t.reordered + t.late + t.gaps());
    }

    @Test
    void aRepeatedSequenceIsADuplicateInsideAndBelowTheWindow() {
        SequenceTracker t = new SequenceTracker(64);
        for (long s = 0; s < 10; s++) {
            t.receive(s, 0);
        }
        assertFalse(t.receive(9, 0)); // inside the window
        assertFalse(t.receive(0, 0)); // below the base, which advanced over received messages
        assertEquals(2, t.duplicates);
        assertEquals(10, t.unique);
    }

    @Test
    void aMessageOvertakenByALaterOneOnItsLaneIsReordered() {
        SequenceTracker t = new SequenceTracker(64);
        t.receive(0, 0);
        t.receive(2, 0);
        assertEquals(1, t.gaps());
        t.receive(1, 0);
        assertEquals(1, t.reordered);
        assertEquals(0, t.gaps());
    }

    @Test
    void orderIsJudgedPerLaneSoPartitionsInterleavingIsNotReordering() {
        SequenceTracker t = new SequenceTracker(64);
        // partition 0 gets even sequences, partition 1 odd; partition 1 is consumed first
        for (long s = 1; s < 20; s += 2) {
            t.receive(s, 1);
        }
        for (long s = 0; s < 20; s += 2) {
            t.receive(s, 0);
        }
        assertEquals(0, t.reordered);
        assertEquals(20, t.unique);
    }

    @Test
    void holesPassedByTheWindowStayMissingAndALateArrivalIsCountedAsLate() {
        SequenceTracker t = new SequenceTracker(64);
        t.receive(0, 0);
        // 1 never arrives; 2..200 do: the window must jump past 1
        for (long s = 2; s <= 200; s++) {
            t.receive(s, 0);
        }
        assertEquals(200, t.unique);
        assertEquals(1, t.gaps());
        assertTrue(t.receive(1, 0)); // arrives after its bit was dropped
        assertEquals(1, t.late);
        assertEquals(201, t.unique);
        assertEquals(0, t.gaps());
    }

    @Test
    void aLongRunWithRegularHolesCountsEveryHoleThroughAFixedWindow() {
        SequenceTracker t = new SequenceTracker(1 << 10);
        long skipped = 0;
        long highest = 0;
        for (long s = 0; s < 4_999_999; s++) { // ends on a received sequence
            if (s % 3 == 1) {
                skipped++;
                continue;
            }
            t.receive(s, 0);
            highest = s;
        }
        assertEquals(skipped, t.gaps());
        assertEquals(highest + 1, t.unique + t.gaps());
        assertEquals(0, t.duplicates + t.late + t.reordered);
    }
}
