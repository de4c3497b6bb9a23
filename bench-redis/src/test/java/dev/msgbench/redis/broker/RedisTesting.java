package dev.msgbench.redis.broker;

import java.io.IOException;

import dev.msgbench.redis.resp.Resp;

/** Lets tests outside this package talk to a local node without a client library. */
public final class RedisTesting {

    private RedisTesting() {
    }

    public static String call(int port, String... command) throws IOException {
        return Resp.call(port, command);
    }

    public static String configGet(int port, String key) throws IOException {
        return Resp.configGet(port, key);
    }
}
