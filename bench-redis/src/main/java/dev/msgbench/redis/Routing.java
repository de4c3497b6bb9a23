package dev.msgbench.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.msgbench.core.driver.RunPlan;

/**
 * Where each producer stream goes: a channel (pub/sub) or stream key (Streams) of its own, named
 * after the run so that runs never meet. Consumer c reads the destinations of the streams s with
 * s % consumers == c: every message reaches exactly one consumer, and one stream's messages reach
 * it in the order they were sent.
 */
final class Routing {

    private final RunPlan plan;

    Routing(RunPlan plan) {
        this.plan = plan;
    }

    String name(int streamId) {
        return plan.runId() + ":" + streamId;
    }

    byte[] key(int streamId) {
        return name(streamId).getBytes(StandardCharsets.UTF_8);
    }

    /** The destinations consumer {@code index} reads; empty when there are more consumers than streams. */
    List<byte[]> keysOf(int index) {
        List<byte[]> keys = new ArrayList<>();
        for (int s = index; s < plan.producers(); s += plan.consumers()) {
            keys.add(key(s));
        }
        return keys;
    }

    List<byte[]> allKeys() {
        List<byte[]> keys = new ArrayList<>();
        for (int s = 0; s < plan.producers(); s++) {
            keys.add(key(s));
        }
        return keys;
    }

    /** For the results: how names are formed and who reads what. */
    String describe() {
        return plan.runId() + ":<stream>, read by consumer <stream> % " + plan.consumers();
    }
}
