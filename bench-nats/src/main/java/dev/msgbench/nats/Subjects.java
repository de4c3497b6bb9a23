package dev.msgbench.nats;

import dev.msgbench.core.payload.RecordKeys;

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

    /** Every stream's subject and every key's under it ({@code RUNID.s.k42}), for a JetStream stream's subject list. */
    String allWithKeys() {
        return runId + ".>";
    }

    /** Every key's subject under stream {@code s}'s, for a wildcard subscription or a consumer's filter. */
    String keysOf(int s) {
        return stream(s) + ".>";
    }

    /** The subject of each record key under {@code subject} ({@code subject.k42}), by key; null without keys. */
    static String[] ofKeys(String subject, RecordKeys keys) {
        if (keys.isNone()) {
            return null;
        }
        String[] names = new String[keys.count()];
        for (int k = 0; k < names.length; k++) {
            names[k] = subject + "." + RecordKeys.name(k);
        }
        return names;
    }

    /** Where the responder echoes stream {@code s}'s messages to, in request/reply. */
    String reply(int s) {
        return runId + "-reply." + s;
    }
}
