package dev.msgbench.mqtt;

import java.util.concurrent.atomic.AtomicBoolean;

import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;

/**
 * Connects a run's client again after the broker dropped it (a kill or a restart of --fault), as
 * it first connected, every {@value #RETRY_MILLIS} ms until the broker answers or the client is
 * closed. Paho's own automatic reconnect waits a second before its first try and doubles the wait
 * after each, which would add up to a second of the client's own to the outage a run measures.
 *
 * <p>Paho fails the publishes in flight when the connection drops, and with a persistent session
 * may send them again once connected, as MQTT asks (so {@link MqttPublisher} settles each message
 * once). Whether the broker still has the session it says in its CONNACK; a subscriber subscribes
 * again either way ({@code reconnected}).
 */
final class Reconnector {

    static final long RETRY_MILLIS = 100;

    private final MqttAsyncClient client;
    private final MqttConnectOptions options;
    private final Runnable reconnected;
    private final AtomicBoolean trying = new AtomicBoolean();
    private volatile boolean closed;

    Reconnector(MqttAsyncClient client, MqttConnectOptions options, Runnable reconnected) {
        this.client = client;
        this.options = options;
        this.reconnected = reconnected;
    }

    /** From Paho's connectionLost: starts trying, unless the client is being closed or tries already. */
    void connectionLost() {
        if (closed || !trying.compareAndSet(false, true)) {
            return;
        }
        Thread thread = new Thread(this::untilConnected, "mqtt-reconnect-" + client.getClientId());
        thread.setDaemon(true);
        thread.start();
    }

    /** Whether a publish that failed with {@code e} met the broker's absence, not our close. */
    boolean awaitingBroker(MqttException e) {
        return brokerAway(closed, client.isConnected(), e.getReasonCode());
    }

    /**
     * A publish refused as "not connected" or "connection lost" met the broker's absence even when
     * the client is connected again by the time it asks: the reconnect can win the race between the
     * refusal and the question. Only our own close makes a failed publish the run's failure.
     */
    static boolean brokerAway(boolean closed, boolean connected, int reasonCode) {
        if (closed) {
            return false;
        }
        return !connected || reasonCode == MqttException.REASON_CODE_CLIENT_NOT_CONNECTED
                || reasonCode == MqttException.REASON_CODE_CONNECTION_LOST;
    }

    /** Stops trying: the run closes the client. */
    void close() {
        closed = true;
    }

    private void untilConnected() {
        try {
            do {
                while (!closed && !client.isConnected()) {
                    try {
                        client.connect(options).waitForCompletion(MqttClients.TIMEOUT_MILLIS);
                    } catch (MqttException e) {
                        // the broker is not back yet (refused, or a connect still in progress)
                        Thread.sleep(RETRY_MILLIS);
                    }
                }
                // before the callback: a broker that drops the client again during it is tried again
                trying.set(false);
                if (closed) {
                    return;
                }
                if (client.isConnected()) {
                    reconnected.run();
                    return;
                }
                // dropped again before trying ended, so its connectionLost returned at once: go on here
            } while (trying.compareAndSet(false, true));
        } catch (InterruptedException e) {
            trying.set(false);
            Thread.currentThread().interrupt();
        }
    }
}
