package dev.msgbench.nats;

/**
 * Names of a run's subjects: one per producer stream, so each stream has one consumer and its
 * order means something. Consumer c takes the streams s with s % consumers == c.
 */
final class Subjects {

    private final String runId;

    Subjects(String runId) {
        this.runId = runId;
    }

    /** Where stream {@code s} publishes: {@code RUNID.s}. */
    String stream(int s) {
        return runId + "." + s;
    }

    /** How the results name the subjects: {@code RUNID.<stream>}. */
    String streamPattern() {
        return runId + ".<stream>";
    }

    String replyPattern() {
        return runId + "-reply.<stream>";
    }

    /** Every stream's subject, for a JetStream stream's subject list. */
    String all() {
        return runId + ".*";
    }

    /** Where the responder echoes stream {@code s}'s messages to, in request/reply. */
    String reply(int s) {
        return runId + "-reply." + s;
    }

    static boolean owns(int consumer, int consumers, int stream) {
        return stream % consumers == consumer;
    }
}
