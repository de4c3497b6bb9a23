package dev.msgbench.core.analysis;

/**
 * One second of a run as the judgements of this package read it: what was sent and received in
 * it and the latency of what was received.
 *
 * @param startSeconds from the start of the measured window
 * @param sent         messages sent in this second
 * @param received     messages received in this second
 * @param inFlight     sent and not yet received at the end of this second (the backlog)
 * @param p50Ms        NaN when nothing was received in this second
 * @param p99Ms        NaN when nothing was received in this second
 * @param maxMs        NaN when nothing was received in this second
 */
public record SecondStats(double startSeconds, long sent, long received, long inFlight, double p50Ms, double p99Ms,
                          double maxMs) {

    public boolean delivered() {
        return received > 0;
    }
}
