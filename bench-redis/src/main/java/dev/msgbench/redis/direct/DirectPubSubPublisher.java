package dev.msgbench.redis.direct;

import static dev.msgbench.redis.resp.Resp.ascii;

import java.io.IOException;

import dev.msgbench.core.driver.AckListener;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.redis.resp.RespConnection;

/**
 * PUBLISH channel MESSAGE written by the producer's own thread ({@code --redis-client direct}).
 * The integer reply counts the subscribers that got the message: none is a failed send, as with
 * lettuce.
 */
final class DirectPubSubPublisher extends DirectPublisher {

    /** @param capacity the most commands awaiting replies at once (the adapter's in-flight limit) */
    DirectPubSubPublisher(RespConnection connection, byte[] channel, String channelName, AckListener acks, Acks mode,
                          int capacity) {
        super(connection, new byte[][] {ascii("PUBLISH"), channel}, new byte[0], channelName, acks, mode, capacity);
        startReader();
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
