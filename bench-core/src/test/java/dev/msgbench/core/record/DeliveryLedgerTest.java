package dev.msgbench.core.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Through {@link Accounting}, as the engine uses it: sent, then acknowledged and received in any order. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DeliveryLedgerTest {

    private static final int CHUNK = DeliveryLedger.CHUNK_MESSAGES;

    private static Accounting sent(long messages) {
        Accounting accounting = new Accounting(1, 64);
        for (long s = 0; s < messages; s++) {
            accounting.countSent(0);
        }
        return accounting;
    }

    @Test
    void aMessageAcknowledgedAndNeverReceivedIsABrokenPromiseAndOneNeverAcknowledgedIsNot() {
        Accounting a = sent(10);
        for (long s = 0; s < 10; s++) {
            if (s != 3) {
                a.countAcked(0, s);
            }
            if (s != 3 && s != 7) {
                a.receive(0, s, 0);
            }
        }
        assertEquals(new Losses(1, 1), a.losses(), "7 was acknowledged and lost; 3 was lost unacknowledged");
    }

    @Test
    void aFailedSendThatNeverArrivedIsAnUnacknowledgedLoss() {
        Accounting a = sent(3);
        a.countAcked(0, 0);
        a.countSendError(0);
        a.countAcked(0, 2);
        a.receive(0, 0, 0);
        a.receive(0, 2, 0);
        assertEquals(new Losses(0, 1), a.losses());
    }

    @Test
    void messagesThatArriveAfterTheTrackingWindowJumpedAreStillReceivedForTheSplit() {
        // a window of 64: sequence 200 arriving first settles 0..136 as missing in the tracker
        Accounting a = sent(201);
        for (long s = 0; s <= 200; s++) {
            a.countAcked(0, s);
        }
        a.receive(0, 200, 0);
        for (long s = 0; s < 200; s++) {
            a.receive(0, s, 0);
        }
        assertEquals(137, a.total().late(), "the tracker could not check these for duplication");
        assertEquals(Losses.NONE, a.losses(), "but every one of them arrived");
    }

    @Test
    void duplicatesAreNotCountedTwiceAndAcknowledgementsOfWholeChunksThatArrivedAreIgnored() {
        Accounting a = sent(CHUNK + 10L);
        for (long s = 0; s < CHUNK + 10L; s++) {
            a.receive(0, s, 0);
            a.receive(0, s, 0);
        }
        for (long s = 0; s < CHUNK + 10L; s++) {
            a.countAcked(0, s);
        }
        a.receive(0, 5, 0);
        assertEquals(Losses.NONE, a.losses());
        assertEquals(CHUNK + 10L, a.total().received());
    }

    @Test
    void theSplitIsExactAcrossChunkBoundariesForEveryStream() {
        Accounting a = new Accounting(2, 64);
        long n = 3L * CHUNK + 17;
        for (long s = 0; s < n; s++) {
            a.countSent(0);
            a.countSent(1);
        }
        for (long s = 0; s < n; s++) {
            if (s % 1000 != 999) {
                a.countAcked(0, s);
            }
            a.countAcked(1, s);
            if (s % 500 != 0 && s != n - 1) {
                a.receive(0, s, 0);
            }
            if (s != CHUNK - 1 && s != CHUNK) {
                a.receive(1, s, 0);
            }
        }
        long lostOn0 = (n + 499) / 500 + 1;
        long unacknowledgedLostOn0 = 0;
        for (long s = 0; s < n; s++) {
            boolean lost = s % 500 == 0 || s == n - 1;
            if (lost && s % 1000 == 999) {
                unacknowledgedLostOn0++;
            }
        }
        assertEquals(new Losses(lostOn0 - unacknowledgedLostOn0 + 2, unacknowledgedLostOn0), a.losses());
    }

    @Test
    void withoutConsumersNothingIsKeptAndNothingCountsAsLost() {
        Accounting a = new Accounting(1, false);
        for (long s = 0; s < 2L * CHUNK; s++) {
            a.countSent(0);
            a.countAcked(0, s);
        }
        assertEquals(Losses.NONE, a.losses());
        assertEquals(2L * CHUNK, a.total().acked());
    }

    @Test
    void acknowledgementsFromSeveralThreadsAreAllKept() throws Exception {
        Accounting a = sent(4L * CHUNK);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int first = t;
            threads.add(new Thread(() -> {
                for (long s = first; s < 4L * CHUNK; s += 4) {
                    a.countAcked(0, s);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(new Losses(4L * CHUNK, 0), a.losses(), "nothing was received: every acknowledged message is lost");
    }

    @Test
    void aMessageAbortedOnPurposeIsNeitherAcknowledgedNorLostAndItsDeliveryIsCountedApart() {
        Accounting a = sent(6);
        for (long s = 0; s < 6; s++) {
            if (s == 2 || s == 3) {
                a.countAborted(0, s);
            } else {
                a.countAcked(0, s);
            }
        }
        a.receive(0, 0, 0);
        a.receive(0, 1, 0);
        a.receive(0, 3, 0);
        a.receive(0, 4, 0);
        assertEquals(new Losses(1, 0), a.losses(), "5 was acknowledged and lost; aborted 2 is not lost");
        assertEquals(2, a.aborted());
        assertEquals(1, a.abortedDelivered(), "3 was aborted and delivered all the same");
        assertEquals(0, a.outstanding(0), "aborted messages await nothing");
    }

    @Test
    void anAbortedMessageIsCountedAsDeliveredWhenItsChunkWasReceivedWholeBeforeTheAbort() {
        // a consumer that reads uncommitted records may receive the whole chunk before the abort returns
        Accounting a = new Accounting(1, 1, 1, true, 10); // a window and ledger chunk of 64 messages
        long chunk = 64;
        for (long s = 0; s < chunk + 1; s++) {
            a.countSent(0);
        }
        for (long s = 0; s < chunk + 1; s++) {
            a.receive(0, s, 0);
        }
        a.countAborted(0, 5);
        a.countAborted(0, chunk);
        assertEquals(2, a.abortedDelivered());
        assertEquals(new Losses(0, 0), a.losses());
    }

    @Test
    void aChunkWithAnAbortedMessageIsKeptSoThatItsDeliveryIsCountedAtTheEnd() {
        Accounting a = new Accounting(1, 1, 1, true, 10); // a window and ledger chunk of 64 messages
        for (long s = 0; s < 64; s++) {
            a.countSent(0);
        }
        a.countAborted(0, 10);
        for (long s = 0; s < 64; s++) {
            a.receive(0, s, 0);
        }
        assertEquals(1, a.abortedDelivered());
    }

    @Test
    void withoutConsumersAnAbortIsCountedButNothingIsDelivered() {
        Accounting a = new Accounting(1, false);
        a.countSent(0);
        a.countAborted(0, 0);
        assertEquals(1, a.aborted());
        assertEquals(0, a.abortedDelivered());
    }
}
