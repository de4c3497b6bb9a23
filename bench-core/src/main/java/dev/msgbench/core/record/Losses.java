package dev.msgbench.core.record;

/**
 * Messages sent and never received, split by what the system had said of them.
 *
 * @param acknowledged   the system acknowledged them and no consumer received them: a broken promise
 * @param unacknowledged never acknowledged, or failed: a loss the system did not promise against
 */
public record Losses(long acknowledged, long unacknowledged) {

    public static final Losses NONE = new Losses(0, 0);

    public Losses plus(Losses other) {
        return new Losses(acknowledged + other.acknowledged, unacknowledged + other.unacknowledged);
    }

    public long total() {
        return acknowledged + unacknowledged;
    }
}
