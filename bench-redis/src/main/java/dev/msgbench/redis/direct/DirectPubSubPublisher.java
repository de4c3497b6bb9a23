package dev.msgbench.redis.direct;

import static dev.msgbench.redis.resp.Resp.ascii;

import java.io.IOException;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.redis.resp.Resp;
import dev.msgbench.redis.resp.RespConnection;

/**
 * PUBLISH channel MESSAGE written by the producer's own thread ({@code --redis-client direct}),
 * with record keys on the channel of each message's key.
 * The integer reply counts the subscribers that got the message: none is a failed send, as with
 * lettuce.
 */
final class DirectPubSubPublisher extends DirectPublisher {

    private static final String PUBLISH = "PUBLISH";

    /**
     * @param channels the stream's channel, or with record keys its channel of each key, by key
     * @param capacity the most commands awaiting replies at once (the adapter's in-flight limit)
     */
    DirectPubSubPublisher(RespConnection connection, byte[][] channels, String channelName, AckListener acks, Acks mode,
                          int capacity) {
        super(connection, PUBLISH, prefixes(channels), new byte[0], channelName, acks, mode, capacity);
        startReader();
    }

    /** Stream number {@code local} of a shared connection whose prefixes {@link #prefixes} built. */
    DirectPubSubPublisher(DirectProducerConnection shared, int local, String channelName, AckListener acks, Acks mode,
                          int capacity) {
        super(shared, shared.prefixBase(local), PUBLISH, channelName, acks, mode, capacity);
        startReader();
    }

    static byte[][] prefixes(byte[][] channels) {
        byte[][] prefixes = new byte[channels.length][];
        for (int k = 0; k < channels.length; k++) {
            prefixes[k] = Resp.commandPrefix(ascii(PUBLISH), channels[k]);
        }
        return prefixes;
    }

    @Override
    public void integer(long receivers) throws IOException {
        answerOldest("an integer");
        if (mode == Acks.NONE) {
            return;
        }
        if (receivers == 0) {
            acks.failed(replySequence, replyIntended, new IllegalStateException(what + " reached no subscriber"));
        } else {
            acks.acked(replySequence, replyIntended);
        }
    }

    @Override
    protected String due() {
        return "PUBLISH's count (an integer)";
    }
}
