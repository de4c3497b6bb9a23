package dev.msgbench.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.msgbench.core.driver.RunPlan;

/** Which consumer reads which stream, and how a shared connection finds a message's consumer: no broker. */
class RoutingTest {

    @Test
    void eachConsumerReadsTheStreamsThePlanDealsIt() {
        List<RunPlan> plans = List.of(new RunPlan("r", 64, 1, 1), new RunPlan("r", 64, 5, 3),
                new RunPlan("r", 64, 3, 6), new RunPlan("r", 64, 16, 8, 4, 2, 4, 4),
                new RunPlan("r", 64, 17, 24, 3, 2).withConsumersPerSubscription(4),
                new RunPlan("r", 64, 40, 40, 10, 1));
        for (RunPlan plan : plans) {
            Routing routing = new Routing(plan);
            for (int i = 0; i < plan.consumers(); i++) {
                assertEquals(plan.streamsOf(i), routing.streamsOf(i), plan + " consumer " + i);
            }
        }
    }

    @Test
    void aSharedConnectionRoutesByTheStreamItsChannelPatternOrKeyEndsWith() {
        for (String[] c : new String[][] {{"msgbench-1-t3:17", "17"}, {"msgbench-1-t3:17:*", "17"}, {"run:0", "0"},
                {"run:1234567", "1234567"}, {"run:", "-1"}, {"", "-1"}}) {
            byte[] name = ("xx" + c[0] + "yy").getBytes(StandardCharsets.UTF_8);
            assertEquals(Integer.parseInt(c[1]), Routing.streamOf(name, 2, name.length - 4), c[0]);
        }
    }

    @Test
    void streamsSharingAConnectionAreThoseOfItsNumberInOrder() {
        Routing routing = new Routing(new RunPlan("r", 64, 7, 1, 1, 1, 3, 1));
        assertEquals(List.of(0, 3, 6), routing.streamsOnConnection(0));
        assertEquals(List.of(2, 5), routing.streamsOnConnection(2));
        assertEquals(2, routing.placeOnConnection(6));
        assertEquals(1, routing.placeOnConnection(5));
    }
}
