package dev.msgbench.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class SharedLinksTest {

    private final List<String> events = new ArrayList<>();

    private final class Link implements AutoCloseable {
        final int index;

        Link(int index) {
            this.index = index;
            events.add("open " + index);
        }

        @Override
        public void close() {
            events.add("close " + index);
        }
    }

    @Test
    void aLinkOpensForItsFirstUserAndClosesWithItsLast() throws Exception {
        SharedLinks<Link> links = new SharedLinks<>();
        SharedLinks<Link>.Lease a = links.acquire(0, Link::new);
        SharedLinks<Link>.Lease b = links.acquire(0, Link::new);
        SharedLinks<Link>.Lease c = links.acquire(1, Link::new);

        assertSame(a.link(), b.link());
        a.close();
        a.close();
        assertEquals(List.of("open 0", "open 1"), events, "one user let go, twice: the other still holds it");
        b.close();
        c.close();
        assertEquals(List.of("open 0", "open 1", "close 0", "close 1"), events);
    }

    @Test
    void closingAllClosesWhatUsersStillHoldAndTheirLateReleaseClosesNothingTwice() throws Exception {
        SharedLinks<Link> links = new SharedLinks<>();
        SharedLinks<Link>.Lease a = links.acquire(3, Link::new);
        links.acquire(3, Link::new);

        links.closeAll("links");
        a.close();
        SharedLinks<Link>.Lease reopened = links.acquire(3, Link::new);

        assertEquals(List.of("open 3", "close 3", "open 3"), events);
        reopened.close();
    }
}
