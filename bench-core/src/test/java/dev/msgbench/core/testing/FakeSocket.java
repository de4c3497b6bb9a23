package dev.msgbench.core.testing;

import java.io.Closeable;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Both directions of a connection between a protocol client and a test playing its server: what
 * the server sends reaches the client in exactly the chunks the test cuts it into, and what the
 * client writes can be read back by the server's side, write by write.
 */
public final class FakeSocket implements Closeable {

    private final BytePipe toClient = new BytePipe();
    private final BytePipe toServer = new BytePipe();

    /** What the client reads. */
    public InputStream clientIn() {
        return toClient.in();
    }

    /** Where the client writes. */
    public OutputStream clientOut() {
        return toServer.out();
    }

    /** What the client wrote, in the chunks it wrote it. */
    public InputStream serverIn() {
        return toServer.in();
    }

    /** The server's side: chunks written here are what the client reads. */
    public BytePipe toClient() {
        return toClient;
    }

    /** The server hangs up: the client reads what was sent, then the end of the stream. */
    public void hangUp() {
        toClient.end();
    }

    /** The client's close: its reader sees the end of the stream, the server's side too. */
    @Override
    public void close() {
        toClient.end();
        toServer.end();
    }
}
