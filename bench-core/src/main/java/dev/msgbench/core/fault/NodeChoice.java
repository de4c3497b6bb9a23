package dev.msgbench.core.fault;

import java.util.Objects;

/**
 * Which node of a local broker a fault hits, resolved at the moment of the fault: the leader
 * then, not the leader when the run started; the coordinator of the run's transactions then
 * ({@link Rule#COORDINATOR}); or {@link Rule#ALL}, every node at once (a power cut of the whole
 * cluster); or {@link Rule#NAMED}, a node of a kind the system names itself (Pulsar's
 * {@code bookie-2}), which the system turns into a number before anything starts.
 *
 * @param number the node (from 1) for {@link Rule#NUMBER}, the node among its kind (from 1) for
 *               {@link Rule#NAMED}, else 0
 * @param role   the kind of node for {@link Rule#NAMED} ("bookie"), else null
 */
public record NodeChoice(Rule rule, int number, String role) {

    public enum Rule { LEADER, ANY_FOLLOWER, NUMBER, ALL, NAMED, COORDINATOR }

    public static final NodeChoice LEADER = new NodeChoice(Rule.LEADER, 0);
    public static final NodeChoice ANY_FOLLOWER = new NodeChoice(Rule.ANY_FOLLOWER, 0);
    public static final NodeChoice ALL = new NodeChoice(Rule.ALL, 0);
    public static final NodeChoice COORDINATOR = new NodeChoice(Rule.COORDINATOR, 0);

    public NodeChoice {
        Objects.requireNonNull(rule, "rule");
        boolean numbered = rule == Rule.NUMBER || rule == Rule.NAMED;
        if (numbered != (number >= 1) || (rule == Rule.NAMED) != (role != null)) {
            throw new IllegalArgumentException("a node number (from 1) exactly for rules NUMBER and NAMED, a role "
                    + "exactly for NAMED: " + rule + " " + number + " " + role);
        }
    }

    public NodeChoice(Rule rule, int number) {
        this(rule, number, null);
    }

    public static NodeChoice node(int number) {
        return new NodeChoice(Rule.NUMBER, number);
    }

    /** The {@code index}th node of kind {@code role}, as in node=bookie-2. */
    public static NodeChoice named(String role, int index) {
        return new NodeChoice(Rule.NAMED, index, role);
    }

    /** As written after node=: leader, any-follower, all, coordinator, the number or ROLE-INDEX. */
    public String label() {
        switch (rule) {
            case LEADER:
                return "leader";
            case ANY_FOLLOWER:
                return "any-follower";
            case ALL:
                return "all";
            case NAMED:
                return role + "-" + number;
            case COORDINATOR:
                return "coordinator";
            default:
                return Integer.toString(number);
        }
    }
}
