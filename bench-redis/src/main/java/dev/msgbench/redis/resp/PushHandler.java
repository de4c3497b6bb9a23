package dev.msgbench.redis.resp;

import java.io.IOException;

/** Where a subscribed connection's pushes go, on its reader thread. */
public interface PushHandler {

    /** A published message; the bytes are valid only during the call. */
    void message(byte[] data, int offset, int length);

    /** The server confirmed the subscription of one channel or pattern. */
    void subscribed();

    /** The connection failed or closed (then {@code cause} is null); no further push comes. */
    void ended(IOException cause);
}
