package dev.msgbench.core.fault;

/**
 * Which node of a local broker a fault hits, resolved at the moment of the fault: the leader
 * then, not the leader when the run started; or {@link Rule#ALL}, every node at once (a power
 * cut of the whole cluster).
 *
 * @param number the node (from 1) for {@link Rule#NUMBER}, else 0
 */
public record NodeChoice(Rule rule, int number) {

    public enum Rule { LEADER, ANY_FOLLOWER, NUMBER, ALL }

    public static final NodeChoice LEADER = new NodeChoice(Rule.LEADER, 0);
    public static final NodeChoice ANY_FOLLOWER = new NodeChoice(Rule.ANY_FOLLOWER, 0);
    public static final NodeChoice ALL = new NodeChoice(Rule.ALL, 0);

    public NodeChoice {
        if ((rule == Rule.NUMBER) != (number >= 1)) {
            throw new IllegalArgumentException("a node number (from 1) exactly for rule NUMBER: " + rule + " " + number);
        }
    }

    public static NodeChoice node(int number) {
        return new NodeChoice(Rule.NUMBER, number);
    }

    /** As written after node=: leader, any-follower, all or the number. */
    public String label() {
        switch (rule) {
            case LEADER:
                return "leader";
            case ANY_FOLLOWER:
                return "any-follower";
            case ALL:
                return "all";
            default:
                return Integer.toString(number);
        }
    }
}
