package dev.msgbench.core.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class RunPlanStreamsTest {

    @Test
    void theStreamsOfAConsumerAreTheOnesItReadsForEveryShapeOfRun() {
        for (int producers = 0; producers <= 13; producers++) {
            for (int topics = 1; topics <= 4; topics++) {
                for (int subscriptions = 1; subscriptions <= 3; subscriptions++) {
                    for (int members = 1; members <= 3; members++) {
                        RunPlan plan = new RunPlan("run", 64, producers, topics * subscriptions * members, topics,
                                subscriptions);
                        for (int i = 0; i < plan.consumers(); i++) {
                            List<Integer> read = new ArrayList<>();
                            for (int s = 0; s < producers; s++) {
                                if (plan.reads(i, s)) {
                                    read.add(s);
                                }
                            }
                            assertEquals(read, plan.streamsOf(i), plan + " consumer " + i);
                        }
                    }
                }
            }
        }
    }

    /* OMB's 1m-topic-1kb-4p-4c files: 4,000,000 producers and consumers; asking each stream for each consumer would not end. */
    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void everyConsumerOfAMillionTopicsFindsItsStreamsAtOnce() {
        RunPlan plan = new RunPlan("run", 1024, 4_000_000, 4_000_000, 1_000_000, 1, 4, 4);
        long total = 0;
        for (int i = 0; i < plan.consumers(); i++) {
            total += plan.streamsOf(i).size();
        }
        assertEquals(4_000_000, total, "each stream read by the one member of its topic's subscription it is dealt to");
        assertEquals(List.of(1_000_001), plan.streamsOf(5));
    }
}
