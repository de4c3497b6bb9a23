package dev.msgbench.redis.resp;

import java.io.IOException;
import java.util.List;

/**
 * Where a connection's replies go, in order, on its reader thread: one call per reply, by its
 * type. Which types a command may answer with is the handler's to decide; one that throws ends
 * the connection, and {@link #ended} follows with what it threw.
 */
public interface ReplyHandler {

    void integer(long value) throws IOException;

    /** A bulk string; its bytes are valid only during the call. */
    void bulk(byte[] data, int offset, int length) throws IOException;

    /** An error reply: the command was refused, the connection goes on. */
    void error(String message) throws IOException;

    void simple(String value) throws IOException;

    /** A nil bulk string or a nil array. */
    void nil() throws IOException;

    /** An array, read whole: its elements as {@link RespReader#readValue()} returns them. */
    void array(List<Object> elements) throws IOException;

    /** The connection failed or closed (then {@code cause} is null); no further reply comes. */
    void ended(IOException cause);
}
