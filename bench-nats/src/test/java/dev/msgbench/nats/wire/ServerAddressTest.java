package dev.msgbench.nats.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.UserError;

class ServerAddressTest {

    @Test
    void addressesParseAsJnatsReadsThemAndSecretsStayOutOfErrors() {
        List<ServerAddress> a = ServerAddress.list("127.0.0.1:4333, nats://bob:pw@example.org ,nats://tok@h:1");
        assertEquals(3, a.size());
        assertEquals("127.0.0.1:4333", a.get(0).toString());
        assertEquals(ServerAddress.DEFAULT_PORT, a.get(1).port());
        assertEquals("bob", a.get(1).user());
        assertEquals("pw", a.get(1).password());
        assertEquals("tok", a.get(2).token());
        assertFalse(a.get(1).toString().contains("pw"));

        UserError tls = assertThrows(UserError.class, () -> ServerAddress.list("tls://bob:pw@h:4443"));
        assertEquals("--url: 'tls://***@h:4443': --nats-client direct speaks plain nats:// only; use --nats-client "
                + "jnats for tls://", tls.getMessage());
        UserError none = assertThrows(UserError.class, () -> ServerAddress.list(" , "));
        assertEquals("--url: ' , ' names no NATS server", none.getMessage());
    }
}
