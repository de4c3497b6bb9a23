package dev.msgbench.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class FrameBufferTest {

    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private final List<Integer> writes = new ArrayList<>();
    private final FrameBuffer frames = new FrameBuffer("PUB s ".getBytes(StandardCharsets.US_ASCII), (b, off, len) -> {
        written.write(b, off, len);
        writes.add(len);
    });

    @Test
    void framesWaitForAFlushAndLeaveInOneWrite() throws Exception {
        frames.add("ab".getBytes(StandardCharsets.US_ASCII));
        frames.add("xyz".getBytes(StandardCharsets.US_ASCII));
        assertEquals(0, writes.size(), "nothing leaves before a flush or a full buffer");

        frames.flush();
        frames.flush();

        String expected = "PUB s 2\r\nab\r\nPUB s 3\r\nxyz\r\n";
        assertEquals(expected, written.toString(StandardCharsets.US_ASCII));
        assertEquals(List.of(expected.length()), writes, "one write, and an empty flush writes nothing");
    }

    @Test
    void aFullBufferLeavesBeforeTheFrameThatWouldNotFitSoNoFrameIsSplit() throws Exception {
        byte[] payload = new byte[1000];
        int frame = "PUB s 1000\r\n".length() + 1000 + 2;
        int fit = FrameBuffer.CAPACITY / frame;
        for (int i = 0; i <= fit; i++) {
            frames.add(payload);
        }
        assertEquals(List.of(fit * frame), writes);
        frames.flush();
        assertEquals((fit + 1) * frame, written.size());
    }

    @Test
    void aPayloadLargerThanTheBufferIsOneWriteOfItsOwnAfterWhatWasGathered() throws Exception {
        frames.add("a".getBytes(StandardCharsets.US_ASCII));
        byte[] big = new byte[FrameBuffer.CAPACITY + 1];
        big[0] = 'B';
        frames.add(big);

        String prefix = "PUB s 1\r\na\r\n";
        String bigHead = "PUB s " + big.length + "\r\n";
        assertEquals(List.of(prefix.length(), bigHead.length() + big.length + 2), writes);
        String all = written.toString(StandardCharsets.ISO_8859_1);
        assertEquals(prefix + bigHead + "B", all.substring(0, prefix.length() + bigHead.length() + 1));
        assertEquals("\r\n", all.substring(all.length() - 2));
    }

    @Test
    void aSuffixFollowsEveryFrameAlsoOneLargerThanTheBuffer() throws Exception {
        List<String> out = new ArrayList<>();
        FrameBuffer withWait = new FrameBuffer("A ".getBytes(StandardCharsets.US_ASCII),
                "W\r\n".getBytes(StandardCharsets.US_ASCII),
                (b, off, len) -> out.add(new String(b, off, len, StandardCharsets.ISO_8859_1)));
        withWait.add("x".getBytes(StandardCharsets.US_ASCII));
        withWait.add("yz".getBytes(StandardCharsets.US_ASCII));
        withWait.flush();
        byte[] big = new byte[FrameBuffer.CAPACITY];
        withWait.add(big);

        assertEquals("A 1\r\nx\r\nW\r\nA 2\r\nyz\r\nW\r\n", out.get(0));
        String last = out.get(1);
        assertEquals(("A " + big.length + "\r\n").length() + big.length + 2 + 3, last.length());
        assertEquals("\r\nW\r\n", last.substring(last.length() - 5));
    }

    @Test
    void eachFrameTakesThePrefixItsIndexNamesAndItsOwnLength() throws Exception {
        List<String> out = new ArrayList<>();
        FrameBuffer keyed = new FrameBuffer(new byte[][] {"P s ".getBytes(StandardCharsets.US_ASCII),
                "P s.k0 ".getBytes(StandardCharsets.US_ASCII), "P s.k1 ".getBytes(StandardCharsets.US_ASCII)},
                new byte[0], (b, off, len) -> out.add(new String(b, off, len, StandardCharsets.ISO_8859_1)));
        keyed.add(2, "abc".getBytes(StandardCharsets.US_ASCII));
        keyed.add(0, new byte[0]);
        keyed.add(1, new byte[1234]);
        keyed.flush();

        assertEquals("P s.k1 3\r\nabc\r\nP s 0\r\n\r\nP s.k0 1234\r\n", out.get(0).substring(0, 37));
        assertEquals(37 + 1234 + 2, out.get(0).length());
    }

    @Test
    void eachMessageTakesThePrefixOfItsKeyAlsoOneLargerThanTheBuffer() throws Exception {
        List<String> out = new ArrayList<>();
        FrameBuffer keyed = new FrameBuffer(new byte[][] {"P a ".getBytes(StandardCharsets.US_ASCII),
                "P bb ".getBytes(StandardCharsets.US_ASCII)}, "W\r\n".getBytes(StandardCharsets.US_ASCII),
                (b, off, len) -> out.add(new String(b, off, len, StandardCharsets.ISO_8859_1)));
        keyed.add(1, "x".getBytes(StandardCharsets.US_ASCII));
        keyed.add(0, "yz".getBytes(StandardCharsets.US_ASCII));
        keyed.add(1, "q".getBytes(StandardCharsets.US_ASCII));
        keyed.flush();
        byte[] big = new byte[FrameBuffer.CAPACITY];
        keyed.add(1, big);

        assertEquals("P bb 1\r\nx\r\nW\r\nP a 2\r\nyz\r\nW\r\nP bb 1\r\nq\r\nW\r\n", out.get(0));
        String last = out.get(1);
        assertEquals("P bb " + big.length + "\r\n", last.substring(0, ("P bb " + big.length + "\r\n").length()));
        assertEquals(("P bb " + big.length + "\r\n").length() + big.length + 2 + 3, last.length());
        assertEquals("\r\nW\r\n", last.substring(last.length() - 5));
    }
}
