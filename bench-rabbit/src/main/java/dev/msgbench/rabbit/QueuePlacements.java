package dev.msgbench.rabbit;

import java.util.List;
import java.util.OptionalInt;

/**
 * Where a queue's replicas are, as the node numbers of a local broker: what AMQP does not tell
 * and only the broker's own tools do. The suite's local broker provides it; a broker given with
 * --url does not.
 */
public interface QueuePlacements {

    int nodeCount();

    /**
     * Asks the broker now: a failover moves the leader.
     *
     * @throws Exception when the broker cannot be asked, or does not know the queue
     */
    Placement placement(String queue) throws Exception;

    /**
     * @param leaderNode  the node that leads a quorum queue; empty while none does, and for a
     *                    classic queue, whose node rabbitmqctl does not name
     * @param memberNodes a quorum queue's nodes holding a replica, in ascending order; empty for a
     *                    classic queue
     */
    record Placement(OptionalInt leaderNode, List<Integer> memberNodes) {

        public Placement {
            memberNodes = List.copyOf(memberNodes);
        }
    }
}
