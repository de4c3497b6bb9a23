package dev.msgbench.cli.report;

import java.util.List;

import dev.msgbench.core.fault.FaultEvent;
import dev.msgbench.core.fault.FaultReport;
import dev.msgbench.core.result.RunResult;

/**
 * What a run's acknowledged loss was measured after: a power loss (or a kill, where the suite has
 * no power loss for a system) of one node or of every node. A run is such a measurement when one
 * of its faults, done, is one of these; its result's {@code counts.acknowledgedLost} is the figure.
 *
 * @param kind     as result.json's {@code faults[].event.kind}: power-loss or kill
 * @param allNodes {@code :node=all} (a coordinated power cut of the cluster), or the one node of a
 *                 one-node broker
 */
record LossKey(String kind, boolean allNodes) {

    static final String POWER_LOSS = "power-loss";
    static final String KILL = "kill";
    /** The kinds after which loss is read, the one that tells more first: a power loss drops what a kill leaves cached. */
    private static final List<String> KINDS = List.of(POWER_LOSS, KILL);

    /** The key of a run's loss; null for a run without such a fault, or whose fault was not done. */
    static LossKey of(RunResult result) {
        LossKey found = null;
        for (FaultReport fault : result.faults()) {
            String kind = fault.event().kind();
            if (KINDS.contains(kind) && FaultEvent.DONE.equals(fault.event().outcome())) {
                // the --fault value names node=all; the resolved node is null for it (and for a node not found, not done)
                LossKey key = new LossKey(kind, fault.event().fault().contains("node=all") || oneNode(result));
                found = found == null || key.rank() < found.rank() ? key : found;
            }
        }
        return found;
    }

    /** A broker of one node: the power loss of its node is the power loss of every node. */
    private static boolean oneNode(RunResult result) {
        return result.broker() != null && result.broker().get("nodes") instanceof Number n && n.intValue() == 1;
    }

    /** Lower tells more: a power loss of every node, of one node, a kill of every node, of one. */
    int rank() {
        return KINDS.indexOf(kind) * 2 + (allNodes ? 0 : 1);
    }

    /** "a power loss of every node", as a column heading ends. */
    String title() {
        return (kind.equals(POWER_LOSS) ? "power loss" : kind) + " of " + (allNodes ? "every node" : "one node");
    }
}
