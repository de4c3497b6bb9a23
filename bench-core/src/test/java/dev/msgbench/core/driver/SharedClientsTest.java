package dev.msgbench.core.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class SharedClientsTest {

    private final List<String> closed = new ArrayList<>();
    private final SharedClients<String> clients = new SharedClients<>(closed::add);

    @Test
    void usersOfOneNumberShareOneClientWhichClosesOnceWithItsLastUser() throws Exception {
        SharedClients<String>.Lease first = clients.acquire(0, n -> "client-" + n);
        SharedClients<String>.Lease second = clients.acquire(0, n -> "another-" + n);
        SharedClients<String>.Lease other = clients.acquire(1, n -> "client-" + n);
        assertSame(first.client(), second.client());
        assertEquals(2, clients.openCount());

        first.close();
        first.close();
        assertEquals(List.of(), closed, "a lease lets go once: the second user still holds client 0");
        second.close();
        assertEquals(List.of("client-0"), closed);
        other.close();
        assertEquals(List.of("client-0", "client-1"), closed);
        assertEquals(0, clients.openCount());
    }

    @Test
    void closeAllClosesWhatUsersStillHoldAndThrowsTheFirstFailureAfterTryingEvery() throws Exception {
        SharedClients<String> failing = new SharedClients<>(client -> {
            closed.add(client);
            throw new IOException("cannot close " + client);
        });
        failing.acquire(0, n -> "a");
        failing.acquire(1, n -> "b");

        IOException e = assertThrows(IOException.class, () -> failing.closeAll("closing the clients"));
        assertEquals(2, closed.size());
        assertEquals("closing the clients failed: cannot close " + closed.get(0) + " (and 1 later failures)",
                e.getMessage());
        assertEquals(0, failing.openCount());
    }

    @Test
    void aSystemsCloseClosesEveryPoolThenItsLastConnectionWhateverFailedAndALateReleaseClosesNothingTwice()
            throws Exception {
        SharedClients<AutoCloseable> pool = SharedClients.ofCloseables();
        SharedClients<AutoCloseable>.Lease held = pool.acquire(3, n -> () -> {
            closed.add("pool " + n);
            throw new IOException("pool " + n + " broke");
        });

        IOException e = assertThrows(IOException.class,
                () -> SharedClients.closeEach(List.of(pool, clients), () -> closed.add("setup")));
        held.close();

        assertEquals(List.of("pool 3", "setup"), closed, "the setup connection closes after a pool failed to");
        assertEquals("a connection left open failed: pool 3 broke", e.getMessage());
        assertEquals(0, pool.openCount());
    }
}
