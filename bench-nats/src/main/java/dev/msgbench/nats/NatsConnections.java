package dev.msgbench.nats;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;

import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import io.nats.client.Nats;
import io.nats.client.Options;

import dev.msgbench.core.UserError;

/**
 * Opens the connections of a run, all alike: one per producer, per consumer and for setup.
 * jnats sets TCP_NODELAY on every socket it opens, so Nagle is off without an option.
 */
final class NatsConnections {

    private NatsConnections() {
    }

    static String clientVersion() {
        return "jnats " + Nats.CLIENT_VERSION;
    }

    /**
     * @param url     one or more servers, comma-separated, with or without nats://
     * @param name    shown by the server's /connz, e.g. "msgbench-producer-3"
     * @param errors  where asynchronous errors of this connection go
     * @throws UserError when no server answers within {@code timeout}
     */
    static Connection open(String url, String name, Duration timeout, ErrorListener errors) throws InterruptedException {
        Options options;
        try {
            options = new Options.Builder()
                    .servers(Arrays.stream(url.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toArray(String[]::new))
                    .connectionName(name)
                    .connectionTimeout(timeout)
                    .errorListener(errors)
                    // the suite names every subject itself; jnats' check of each publish's subject cost
                    // a sixth of the producer thread's time at a million messages a second
                    .noSubjectValidation()
                    .build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new UserError("--url: '" + url + "' is not a NATS server address (host:port or nats://host:port, "
                    + "comma-separated): " + e.getMessage());
        }
        try {
            return Nats.connect(options);
        } catch (IOException e) {
            throw new UserError("--url: no NATS server answered at " + url + " within " + timeout.toSeconds()
                    + " s; check the address, or omit --url to start a local server");
        }
    }
}
