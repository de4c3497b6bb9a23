package dev.msgbench.nats;

/**
 * Names of a topic's subjects: one per producer stream, so each stream has one consumer in each
 * subscription and its order means something; RunPlan#streamsOf deals the streams to consumers.
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
}
