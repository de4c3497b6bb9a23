package dev.msgbench.cli.workload;

import java.util.List;
import java.util.Map;

import org.yaml.snakeyaml.nodes.Node;

/**
 * The fields of an OpenMessaging Benchmark workload that this suite does not do as OMB does:
 * refused when the run would measure another workload (slow consumers), or said
 * in a line when only the bytes of the payload differ. No field is dropped without a word.
 */
public final class OmbUnsupported {

    private OmbUnsupported() {
    }

    static void check(YamlDocument doc, Map<String, Node> top, Map<String, Origin> lines, List<String> warnings) {
        long backlogGb = backlogGb(doc, top);
        if (backlogGb < 0) {
            throw doc.origin(top.get("consumerBacklogSizeGB")).error("'consumerBacklogSizeGB' must be 0 or more, got "
                    + backlogGb);
        }
        if (top.containsKey("backlogDrainRatio")) {
            warnings.add(lines.get("backlogDrainRatio") + ": backlogDrainRatio " + doc.text("backlogDrainRatio",
                    top.get("backlogDrainRatio")) + (backlogGb == 0
                    ? " has no effect: it applies to backlog-and-drain runs, and consumerBacklogSizeGB is 0"
                    : " ignored: the drain here lasts until the consumers have read the whole backlog"));
        }
        drainKeys(doc, top, lines, backlogGb, warnings);
        if (top.containsKey("messageRateReceivedForSubscription")) {
            String percent = doc.text("messageRateReceivedForSubscription", top.get("messageRateReceivedForSubscription"));
            if (!percent.equals("100")) {
                warnings.add(lines.get("messageRateReceivedForSubscription") + ": messageRateReceivedForSubscription "
                        + percent + " ignored: every subscription here receives every message of its topic (message "
                        + "selectors are not supported)");
            }
        }
        if (top.containsKey("ensureTopicsAreReady")) {
            warnings.add(lines.get("ensureTopicsAreReady") + ": ensureTopicsAreReady " + doc.text("ensureTopicsAreReady",
                    top.get("ensureTopicsAreReady")) + " ignored: the run always creates its topics and subscriptions "
                    + "before it sends");
        }
        if (top.containsKey("messageProcessingDelayMs")) {
            long delayMs = doc.wholeNumber("messageProcessingDelayMs", top.get("messageProcessingDelayMs"));
            if (delayMs != 0) {
                throw doc.origin(top.get("messageProcessingDelayMs")).error("'messageProcessingDelayMs' must be 0, got "
                        + delayMs + ": consumers here receive as fast as they can; a processing delay per message is not "
                        + "supported yet");
            }
        }
        payload(doc, top, lines, warnings);
    }

    /** Keys of OMB forks that tune the drain: this suite drains the whole backlog with the producers on schedule. */
    private static void drainKeys(YamlDocument doc, Map<String, Node> top, Map<String, Origin> lines, long backlogGb,
            List<String> warnings) {
        String noBacklog = " has no effect: it applies to backlog-and-drain runs, and consumerBacklogSizeGB is 0";
        if (top.containsKey("acceptableBacklog")) {
            warnings.add(lines.get("acceptableBacklog") + ": acceptableBacklog " + doc.text("acceptableBacklog",
                    top.get("acceptableBacklog")) + (backlogGb == 0 ? noBacklog
                    : " ignored: the drain here lasts until the consumers have read the whole backlog"));
        }
        if (top.containsKey("producerPauseDuringDrain")) {
            String pause = doc.text("producerPauseDuringDrain", top.get("producerPauseDuringDrain"));
            if (backlogGb == 0) {
                warnings.add(lines.get("producerPauseDuringDrain") + ": producerPauseDuringDrain " + pause + noBacklog);
            } else if (!pause.equals("0") && !pause.equals("false")) {
                warnings.add(lines.get("producerPauseDuringDrain") + ": producerPauseDuringDrain " + pause + " ignored: "
                        + "the producers here keep their open-loop schedule during the drain");
            }
        }
    }

    /** OMB's consumerBacklogSizeGB (GiB, as its driver counts them), 0 when absent: --backlog when above 0. */
    static long backlogGb(YamlDocument doc, Map<String, Node> top) {
        return top.containsKey("consumerBacklogSizeGB")
                ? doc.wholeNumber("consumerBacklogSizeGB", top.get("consumerBacklogSizeGB")) : 0;
    }

    /** OmbPayload maps payloadFile and randomBytesRatio; a pool of payloads has no equivalent here. */
    private static void payload(YamlDocument doc, Map<String, Node> top, Map<String, Origin> lines, List<String> warnings) {
        if (top.containsKey("randomizedPayloadPoolSize")) {
            warnings.add(lines.get("randomizedPayloadPoolSize") + ": randomizedPayloadPoolSize " + doc.text(
                    "randomizedPayloadPoolSize", top.get("randomizedPayloadPoolSize")) + " ignored: payloads are random "
                    + "bytes of messageSize, not drawn from a pool");
        }
    }
}
