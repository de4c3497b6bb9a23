package dev.msgbench.nats;

import java.io.IOException;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.ErrorListener;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.support.Status;

/**
 * Hands a connection's asynchronous errors to the run (a subscriber's sink, a publisher's first
 * error) instead of jnats' default of logging them. Errors that arrive once we close the
 * connection ourselves are part of closing it, not of the measurement, and are dropped.
 *
 * <p>A lost server is not an error of the run: jnats reconnects (without limit, see
 * {@link NatsConnections}) and resubscribes, and the run measures the outage; a server gone for
 * longer than the run may wait is for the run's fault timeout to end. So the exceptions of losing
 * the connection and of the attempts to reconnect are kept, not reported: the last one becomes the
 * cause should jnats close the connection on its own.
 */
final class ErrorRelay implements ErrorListener, ConnectionListener {

    private final String connectionName;
    private final Consumer<Throwable> target;
    private volatile boolean closing;
    private volatile Exception connectionProblem;

    ErrorRelay(String connectionName, Consumer<Throwable> target) {
        this.connectionName = connectionName;
        this.target = target;
    }

    /**
     * The last exception of losing or failing to make the connection, or null: what a failed
     * connect was about (jnats' own exception then only says it could not connect).
     */
    Exception connectionProblem() {
        return connectionProblem;
    }

    /** Called just before the connection is closed on purpose. */
    void closing() {
        closing = true;
    }

    @Override
    public void errorOccurred(Connection conn, String error) {
        report(new IOException("NATS server error on " + connectionName + ": " + error));
    }

    @Override
    public void exceptionOccurred(Connection conn, Exception exp) {
        if (isConnectionProblem(conn, exp)) {
            connectionProblem = exp;
        } else {
            report(exp);
        }
    }

    /**
     * jnats reports a broken socket, a connection attempt refused or timed out, and pings left
     * unanswered as these, then reconnects; while it reconnects, what fails is part of the outage.
     */
    private static boolean isConnectionProblem(Connection conn, Exception exp) {
        return exp instanceof IOException || exp instanceof TimeoutException
                || conn == null || conn.getStatus() != Connection.Status.CONNECTED;
    }

    @Override
    public void connectionEvent(Connection conn, Events type) {
        if (type == Events.CLOSED) {
            Exception cause = connectionProblem;
            report(new IOException("NATS connection " + connectionName + " was closed by jnats, not by the suite"
                    + (cause == null ? "" : "; last connection error: " + cause), cause));
        }
    }

    @Override
    public void slowConsumerDetected(Connection conn, io.nats.client.Consumer consumer) {
        // the client library, not the broker, dropped messages: the measurement would be of us
        report(new IllegalStateException("slow consumer on " + connectionName
                + ": jnats dropped messages its dispatcher could not keep up with"));
    }

    @Override
    public void messageDiscarded(Connection conn, Message msg) {
        report(new IllegalStateException("jnats discarded an outgoing message on " + connectionName
                + " (its outgoing queue was full)"));
    }

    @Override
    public void unhandledStatus(Connection conn, JetStreamSubscription sub, Status status) {
        report(new IOException("unexpected JetStream status on " + connectionName + ": " + status));
    }

    @Override
    public void pullStatusError(Connection conn, JetStreamSubscription sub, Status status) {
        report(new IOException("JetStream pull error on " + connectionName + ": " + status));
    }

    @Override
    public void heartbeatAlarm(Connection conn, JetStreamSubscription sub, long lastStreamSequence,
                               long lastConsumerSequence) {
        // part of an outage like a lost connection: a pull consumer's pending pull died with the
        // server, and jnats pulls again on this alarm; a consumer that never resumes shows in the
        // run's counts and fault timeout, not here
        connectionProblem = new IOException("JetStream heartbeats missed on " + connectionName
                + " after stream sequence " + lastStreamSequence);
    }

    private void report(Throwable error) {
        if (!closing) {
            target.accept(error);
        }
    }
}
