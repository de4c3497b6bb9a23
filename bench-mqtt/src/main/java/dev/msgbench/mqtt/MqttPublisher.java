package dev.msgbench.mqtt;

import java.util.Arrays;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.eclipse.paho.client.mqttv3.IMqttActionListener;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttCallback;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Publisher;

/**
 * One producer stream on a client of its own. Paho completes a publish's token at the end of its
 * QoS handshake: QoS 0 once written to the socket (nothing to acknowledge), QoS 1 on PUBACK, QoS 2
 * on PUBCOMP; the last two are the acknowledgements the suite counts.
 *
 * <p>A permit per message in flight: Paho refuses a QoS 1 or 2 publish beyond its max inflight
 * rather than waiting, and queues QoS 0 ones without a bound; a publish waits here instead, which
 * the core measures as send delay.
 */
final class MqttPublisher implements Publisher {

    /** How often a publish that found Paho's window full tries again; a handshake on loopback takes less. */
    private static final long ROOM_POLL_MILLIS = 1;

    private final MqttAsyncClient client;
    private final String[] topics;
    private final int qos;
    private final AckListener acks;
    private final int maxInFlight;
    private final Semaphore inFlight;
    private final Reconnector reconnector;

    /** @param options how {@code client} connected, to connect again after the broker dropped it */
    MqttPublisher(MqttAsyncClient client, MqttConnectOptions options, String[] topics, int qos, AckListener acks,
                  int maxInFlight) {
        this.client = client;
        this.reconnector = new Reconnector(client, options, () -> { });
        client.setCallback(new MqttCallback() {
            @Override
            public void connectionLost(Throwable cause) {
                reconnector.connectionLost();
            }

            @Override
            public void messageArrived(String topic, MqttMessage message) {
                // a publisher subscribes to nothing
            }

            @Override
            public void deliveryComplete(IMqttDeliveryToken token) {
                // each publish has its own Completion
            }
        });
        this.topics = topics;
        this.qos = qos;
        this.acks = acks;
        this.maxInFlight = maxInFlight;
        this.inFlight = new Semaphore(maxInFlight);
    }

    @Override
    public void publish(byte[] message, long sequence, long intendedSendNanos) throws Exception {
        send(topics[0], message, sequence, intendedSendNanos);
    }

    @Override
    public void publish(byte[] message, int key, long sequence, long intendedSendNanos) throws Exception {
        send(topics[key], message, sequence, intendedSendNanos);
    }

    private void send(String topic, byte[] message, long sequence, long intendedSendNanos) throws Exception {
        inFlight.acquire();
        try {
            // Paho keeps the array until the handshake ends; the caller reuses its own
            publishWhenPahoHasRoom(topic, Arrays.copyOf(message, message.length),
                    new Completion(sequence, intendedSendNanos));
        } catch (MqttException e) {
            inFlight.release();
            if (!reconnector.awaitingBroker(e)) {
                throw e;
            }
            acks.failed(sequence, intendedSendNanos, e);
        } catch (RuntimeException | InterruptedException e) {
            inFlight.release();
            throw e;
        }
    }

    /**
     * Publishes, waiting while Paho's in-flight window is full. The permits keep within it, except
     * after a reconnect with a persistent session: Paho then sends again the messages that were in
     * flight at the drop, whose permits were given back when they failed, and they hold slots of its
     * window until their handshakes end (moments later). Waiting for them is what a full window
     * means everywhere else, and the core measures it as send delay.
     */
    private void publishWhenPahoHasRoom(String topic, byte[] payload, Completion completion)
            throws MqttException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MqttClients.TIMEOUT_MILLIS);
        while (true) {
            try {
                client.publish(topic, payload, qos, false, null, completion);
                return;
            } catch (MqttException e) {
                if (e.getReasonCode() != MqttException.REASON_CODE_MAX_INFLIGHT || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(ROOM_POLL_MILLIS);
            }
        }
    }

    /** Waits until Paho has written every QoS 0 message and every handshake has ended. */
    @Override
    public void flush() throws Exception {
        if (inFlight.tryAcquire(maxInFlight, MqttClients.TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
            inFlight.release(maxInFlight);
        }
    }

    @Override
    public void close() throws Exception {
        reconnector.close();
        MqttClients.close(client);
    }

    /**
     * Settles its message once: with a persistent session Paho may fail a message in flight when the
     * connection drops and complete it when it sends it again after the reconnect.
     */
    private final class Completion implements IMqttActionListener {

        private final AtomicBoolean settled = new AtomicBoolean();
        private final long sequence;
        private final long intendedSendNanos;

        Completion(long sequence, long intendedSendNanos) {
            this.sequence = sequence;
            this.intendedSendNanos = intendedSendNanos;
        }

        @Override
        public void onSuccess(IMqttToken token) {
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            inFlight.release();
            if (qos > 0) {
                acks.acked(sequence, intendedSendNanos);
            }
        }

        @Override
        public void onFailure(IMqttToken token, Throwable error) {
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            inFlight.release();
            acks.failed(sequence, intendedSendNanos, error);
        }
    }
}
