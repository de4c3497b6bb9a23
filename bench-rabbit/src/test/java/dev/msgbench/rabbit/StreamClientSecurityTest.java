package dev.msgbench.rabbit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.msgbench.core.UserError;
import dev.msgbench.core.security.ClientSecurity;
import dev.msgbench.core.security.TlsFiles;
import io.netty.buffer.ByteBufAllocator;
import java.net.URI;
import java.util.List;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;

/** Which stream-client connections use TLS, and how: no broker. */
class StreamClientSecurityTest {

    @Test
    void theTlsSchemeTurnsTlsOnAndItsDefaultPortIs5551() {
        StreamClientSecurity tls = StreamClientSecurity.of(List.of("rabbitmq-stream+tls://127.0.0.1"), ClientSecurity.NONE);
        StreamClientSecurity plain = StreamClientSecurity.of(List.of("rabbitmq-stream://127.0.0.1"), ClientSecurity.NONE);

        assertTrue(tls.usesTls());
        assertEquals(5551, tls.port(URI.create("rabbitmq-stream+tls://127.0.0.1")));
        assertNotNull(tls.greeting());
        assertFalse(plain.usesTls());
        assertEquals(5552, plain.port(URI.create("rabbitmq-stream://127.0.0.1")));
        assertEquals(5600, plain.port(URI.create("rabbitmq-stream://127.0.0.1:5600")));
        assertNull(plain.greeting());
    }

    /** As rabbitmq's amqp:// with --ca: trust given is trust used, never a silent plaintext connection. */
    @Test
    void caGivenTurnsTlsOnWhateverTheScheme() {
        ClientSecurity withCa = ClientSecurity.NONE.withTls(TlsFiles.DEFAULT_TRUST);

        assertTrue(StreamClientSecurity.of(List.of("rabbitmq-stream://127.0.0.1:5551"), withCa).usesTls());
    }

    @Test
    void aUrlOfAnotherProtocolIsOneLineWithoutItsPassword() {
        UserError e = assertThrows(UserError.class, () -> StreamClientSecurity.of(
                List.of("amqps://bench:Url-Secret-1@127.0.0.1:5671"), ClientSecurity.NONE));

        assertEquals("--url must be rabbitmq-stream://[USER:PASSWORD@]HOST[:PORT] or "
                + "rabbitmq-stream+tls://[USER:PASSWORD@]HOST[:PORT] for rabbitmq-streams, several separated by commas, "
                + "got 'amqps://127.0.0.1:5671'", e.getMessage());
    }

    @Test
    void nodesOfOneClusterShareTheScheme() {
        UserError e = assertThrows(UserError.class, () -> StreamClientSecurity.of(
                List.of("rabbitmq-stream+tls://127.0.0.1:5551", "rabbitmq-stream://127.0.0.1:5552"), ClientSecurity.NONE));

        assertEquals("--url: the nodes of one cluster must share the scheme (rabbitmq-stream:// or "
                + "rabbitmq-stream+tls://), got 'rabbitmq-stream+tls://127.0.0.1:5551' and "
                + "'rabbitmq-stream://127.0.0.1:5552'", e.getMessage());
    }

    /** Netty's client checks the host name only when told to; the throwaway certificates name 127.0.0.1. */
    @Test
    void theTlsContextChecksThatTheCertificateNamesTheHost() {
        SSLEngine engine = StreamClientSecurity.nettyContext(TlsFiles.DEFAULT_TRUST)
                .newEngine(ByteBufAllocator.DEFAULT, "127.0.0.1", 5551);

        assertEquals("HTTPS", engine.getSSLParameters().getEndpointIdentificationAlgorithm());
        assertTrue(engine.getUseClientMode());
    }

    @Test
    void anAddressIsShownWithoutTheLoginOfItsUrl() {
        assertEquals("rabbitmq-stream+tls://127.0.0.1:5551",
                StreamClientSecurity.hostAndPort("rabbitmq-stream+tls://bench:Url-Secret-2@127.0.0.1:5551"));
        assertEquals("rabbitmq-stream://127.0.0.1:5552", StreamClientSecurity.hostAndPort("rabbitmq-stream://127.0.0.1:5552"));
    }
}
