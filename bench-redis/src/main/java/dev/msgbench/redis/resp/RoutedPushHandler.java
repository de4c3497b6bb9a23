package dev.msgbench.redis.resp;

import java.io.IOException;

/**
 * Where the pushes of a subscribed connection that several consumers share go, on its reader
 * thread: each with the route its channel or pattern names, as {@link #route} makes it.
 */
public interface RoutedPushHandler {

    /** The route of a channel or pattern, whose bytes are valid only during the call. */
    int route(byte[] name, int offset, int length);

    /** A published message on {@code route}; the bytes are valid only during the call. */
    void message(int route, byte[] data, int offset, int length);

    /** The server confirmed the subscription of one channel or pattern, of {@code route}. */
    void subscribed(int route);

    /** The connection failed or closed (then {@code cause} is null); no further push comes. */
    void ended(IOException cause);
}
