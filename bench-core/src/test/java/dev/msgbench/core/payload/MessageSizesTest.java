package dev.msgbench.core.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

class MessageSizesTest {

    @Test
    void oneSizeIsFixedAndEveryDrawIsIt() {
        MessageSizes sizes = MessageSizes.parse("1KiB");

        assertTrue(sizes.isFixed());
        assertEquals(1_024, sizes.minBytes());
        assertEquals(1_024, sizes.maxBytes());
        assertEquals("1KiB", sizes.spec());
        assertEquals(1_024, sizes.sampler(1).next());
    }

    @Test
    void aUniformRangeDrawsEverySizeInItAndNothingOutside() {
        MessageSizes sizes = MessageSizes.parse("uniform:100B-10KiB");
        MessageSizes.Sampler sampler = sizes.sampler(7);
        int min = Integer.MAX_VALUE;
        int max = 0;
        long sum = 0;
        for (int i = 0; i < 100_000; i++) {
            int size = sampler.next();
            min = Math.min(min, size);
            max = Math.max(max, size);
            sum += size;
        }

        assertEquals("uniform:100B-10KiB", sizes.spec());
        assertEquals(100, sizes.minBytes());
        assertEquals(10_240, sizes.maxBytes());
        assertEquals(5_170, sizes.meanBytes());
        assertEquals(100, min);
        assertEquals(10_240, max);
        assertEquals(5_170, sum / 100_000.0, 30);
    }

    @Test
    void weightsAreSortedBySizeAndDrawnInProportionTheSameWithTheSameSeed() {
        MessageSizes sizes = MessageSizes.parse("weights:64KiB=5,100B=80,1KiB=15");
        Map<Integer, Integer> drawn = new TreeMap<>();
        MessageSizes.Sampler sampler = sizes.sampler(3);
        MessageSizes.Sampler same = sizes.sampler(3);
        for (int i = 0; i < 20_000; i++) {
            int size = sampler.next();
            assertEquals(size, same.next());
            drawn.merge(size, 1, Integer::sum);
        }

        assertEquals("weights:100B=80,1KiB=15,64KiB=5", sizes.spec());
        assertEquals(0.80 * 100 + 0.15 * 1_024 + 0.05 * 65_536, sizes.meanBytes(), 1e-9);
        assertEquals(16_000, drawn.get(100), 300);
        assertEquals(3_000, drawn.get(1_024), 200);
        assertEquals(1_000, drawn.get(65_536), 100);
        assertEquals(3, drawn.size());
    }

    @Test
    void buffersHaveTheDrawnLengthAndAreReusedPerSizeWhereTheSizesAreFew() {
        RandomPayloads payloads = new RandomPayloads(MessageSizes.parse("weights:100B=1,200B=1"), 1);
        MessageBuffers buffers = payloads.buffers(9);
        byte[] first100 = null;
        for (int i = 0; i < 50; i++) {
            byte[] message = buffers.next();
            assertTrue(message.length == 100 || message.length == 200, "length " + message.length);
            if (message.length == 100) {
                first100 = first100 == null ? message : first100;
                assertSame(first100, message);
            }
        }
        BodySource bodies = payloads.source(5);
        byte[] small = new byte[100];
        bodies.refill(small);
        assertFalse(java.util.Arrays.equals(new byte[68], java.util.Arrays.copyOfRange(small, 32, 100)));
    }

    @Test
    void aBadSizeSaysWhichRuleItBroke() {
        assertEquals("a uniform size is 'uniform:MIN-MAX' (e.g. uniform:100B-10KiB), got 'uniform:100B'",
                error("uniform:100B"));
        assertEquals("uniform:MIN-MAX needs MIN <= MAX, got 'uniform:2KiB-1KiB'", error("uniform:2KiB-1KiB"));
        assertEquals("weights are 'weights:SIZE=WEIGHT,...' (e.g. weights:100B=80,1KiB=20), got '1KiB' in "
                + "'weights:100B=80,1KiB'", error("weights:100B=80,1KiB"));
        assertEquals("a weight must be above 0, got '1KiB=0' in 'weights:100B=80,1KiB=0'", error("weights:100B=80,1KiB=0"));
        assertEquals("each size once, got 100B twice in 'weights:100B=1,100=2'", error("weights:100B=1,100=2"));
        assertEquals("'lots' is not a size (examples: 100, 256B, 1KiB, 1MiB)", error("lots"));
    }

    private static String error(String spec) {
        return assertThrows(IllegalArgumentException.class, () -> MessageSizes.parse(spec)).getMessage();
    }
}
