package dev.msgbench.mqtt;

import java.time.Duration;

import org.eclipse.paho.client.mqttv3.IMqttActionListener;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttCallback;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.MessageSink;
import dev.msgbench.core.driver.Subscriber;

/**
 * One subscriber on a client of its own, subscribed at the run's QoS. Paho calls back on one thread
 * per client, in the order the broker sent the messages, and answers PUBACK (QoS 1) or PUBREC (QoS
 * 2) once the callback returns, so a message is in the sink before the broker counts it delivered.
 *
 * <p>When the broker drops it (a kill or restart of --fault) it connects again and subscribes
 * again: a broker restarted without the session (persistence off, or not saved before a kill) has
 * forgotten the subscription, and one that kept it takes the SUBSCRIBE as a no-op.
 */
final class MqttSubscriber implements Subscriber {

    private final MqttAsyncClient client;
    private final MessageSink sink;
    private final Reconnector reconnector;
    private volatile String filter;
    private volatile int qos;
    private IMqttToken subscribed;

    private MqttSubscriber(MqttAsyncClient client, MqttConnectOptions options, MessageSink sink) {
        this.client = client;
        this.sink = sink;
        this.reconnector = new Reconnector(client, options, this::subscribeAgain);
    }

    /**
     * A subscriber whose messages go to {@code sink}, before {@code client} connects with
     * {@code options}, with which it connects again when the broker drops it.
     */
    static MqttSubscriber connecting(MqttAsyncClient client, MqttConnectOptions options, MessageSink sink) {
        MqttSubscriber subscriber = new MqttSubscriber(client, options, sink);
        client.setCallback(new MqttCallback() {
            @Override
            public void connectionLost(Throwable cause) {
                subscriber.reconnector.connectionLost();
            }

            @Override
            public void messageArrived(String topic, MqttMessage message) {
                byte[] payload = message.getPayload();
                sink.onMessage(payload, 0, payload.length, 0);
            }

            @Override
            public void deliveryComplete(IMqttDeliveryToken token) {
                // a subscriber publishes nothing
            }
        });
        return subscriber;
    }

    /** Sends SUBSCRIBE once the client is connected; {@link #awaitReady} waits for its SUBACK. */
    void subscribe(String topicFilter, int requestedQos) throws MqttException {
        this.filter = topicFilter;
        this.qos = requestedQos;
        this.subscribed = client.subscribe(topicFilter, requestedQos);
    }

    /** After a reconnect: a failure to subscribe again fails the run, as its messages would be lost unseen. */
    private void subscribeAgain() {
        if (filter == null) {
            // dropped before its first SUBSCRIBE went out: subscribe() sends it
            return;
        }
        try {
            client.subscribe(filter, qos, null, new IMqttActionListener() {
                @Override
                public void onSuccess(IMqttToken token) {
                    // the messages published from now on reach the subscriber
                }

                @Override
                public void onFailure(IMqttToken token, Throwable error) {
                    sink.onError(error);
                }
            });
        } catch (MqttException e) {
            sink.onError(e);
        }
    }

    /** Returns once the broker's SUBACK granted the subscription. */
    @Override
    public void awaitReady(Duration timeout) throws Exception {
        subscribed.waitForCompletion(timeout.toMillis());
        int[] granted = subscribed.getGrantedQos();
        if (granted.length == 0 || granted[0] == 0x80) {
            throw new UserError("the MQTT broker refused the subscription to " + filter + " (SUBACK 0x80)");
        }
        if (granted[0] < qos) {
            // messages would arrive at the lower QoS, with a weaker handshake than the run records
            throw new UserError("--mqtt-qos " + qos + ": the MQTT broker granted QoS " + granted[0] + " to the "
                    + "subscription to " + filter + " (a max_qos below it?); give --mqtt-qos " + granted[0]);
        }
    }

    @Override
    public void close() throws Exception {
        reconnector.close();
        MqttClients.close(client);
    }
}
