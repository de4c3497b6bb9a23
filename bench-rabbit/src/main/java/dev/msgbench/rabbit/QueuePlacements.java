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
     * @param leaderNode  the node that leads the queue (a classic queue's one node); empty while
     *                    none does
     * @param memberNodes the nodes holding a replica, in ascending order
     */
    record Placement(OptionalInt leaderNode, List<Integer> memberNodes) {

        public Placement {
            memberNodes = List.copyOf(memberNodes);
        }
    }
}
