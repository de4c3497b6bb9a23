package dev.msgbench.redis;

import dev.msgbench.core.driver.AckListener;

/**
 * PUBLISH channel MESSAGE written by the producer's own thread ({@code --redis-client direct}).
 * The integer reply counts the subscribers that got the message: none is a failed send, as with
 * lettuce.
 */
final class DirectPubSubPublisher extends DirectPublisher {

    /** @param capacity the most commands awaiting replies at once ({@link InFlight#limit(int, int)}) */
    DirectPubSubPublisher(RespConnection connection, byte[] channel, String channelName, AckListener acks, RedisAcks mode,
                          int capacity) {
        super(connection, new byte[][] {ascii("PUBLISH"), channel}, new byte[0], channelName, acks, mode, capacity);
        startReader();
    }

    @Override
    public void integer(long receivers) {
        if (!answerOldest("an integer")) {
            return;
        }
        if (mode == RedisAcks.NONE) {
            return;
        }
        if (receivers == 0) {
            acks.failed(replySequence, replyIntended, new IllegalStateException(what + " reached no subscriber"));
        } else {
            acks.acked(replySequence, replyIntended);
        }
    }

    @Override
    public void bulk() {
        protocolError("a bulk string where PUBLISH's count was due");
    }
}
