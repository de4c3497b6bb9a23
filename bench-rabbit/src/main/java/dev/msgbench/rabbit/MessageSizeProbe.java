package dev.msgbench.rabbit;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import dev.msgbench.core.UserError;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks the broker's max_message_size before the run: AMQP does not tell a client the limit, but
 * the broker checks each message's size as it arrives and closes the channel with a reply that
 * names both sizes. So one message of the run's size is published, with a confirm, to a routing
 * key no queue is bound to: the broker drops it after the check, and nothing of the run sees it.
 */
final class MessageSizeProbe {

    private static final long CONFIRM_TIMEOUT_MILLIS = 10_000;
    /** RabbitMQ 3.8 to 3.13: "message size 2000100 is larger than configured max size 2000000". */
    private static final Pattern TOO_LARGE = Pattern.compile("message size (\\d+) is larger than configured max size (\\d+)");

    private MessageSizeProbe() {
    }

    /** @throws UserError naming max_message_size when a message of {@code sizeBytes} is refused */
    static void check(Connection connection, String unroutableKey, int sizeBytes)
            throws IOException, InterruptedException, TimeoutException {
        Channel channel = connection.createChannel();
        try {
            channel.confirmSelect();
            channel.basicPublish("", unroutableKey, false, new AMQP.BasicProperties(), new byte[sizeBytes]);
            channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MILLIS);
        } catch (ShutdownSignalException e) {
            throw tooLarge(e, sizeBytes);
        } catch (IOException e) {
            if (e.getCause() instanceof ShutdownSignalException) {
                throw tooLarge((ShutdownSignalException) e.getCause(), sizeBytes);
            }
            throw e;
        } finally {
            if (channel.isOpen()) {
                channel.abort();
            }
        }
    }

    private static RuntimeException tooLarge(ShutdownSignalException e, int sizeBytes) {
        Matcher m = TOO_LARGE.matcher(String.valueOf(e.getMessage()));
        if (!m.find()) {
            return e;
        }
        long max = Long.parseLong(m.group(2));
        return new UserError("--size " + sizeBytes + " B: this RabbitMQ accepts at most " + max + " bytes per message; "
                + "raise its max_message_size (--broker-prop max_message_size=" + sizeBytes + " for a local broker)", e);
    }
}
