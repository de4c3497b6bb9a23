package dev.msgbench.core.payload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PayloadContentTest {

    private static final int RUN_KEY = 0x0BAD_CAFE;
    private static final long MAX = 64 << 20;

    @TempDir
    Path dir;

    @Test
    void randomIsTheDefaultAndTheOnlyOneThatIsNotAnExperiment() {
        assertSame(PayloadContent.RANDOM, PayloadContent.parse("random", MAX));
        assertTrue(PayloadContent.RANDOM.isRandom());
        assertFalse(PayloadContent.parse("compressible:0.1", MAX).isRandom());
        assertEquals("random", PayloadContent.RANDOM.spec());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "compressible:0.1|compressible:0.1",
            "compressible:0|compressible:0",
            "compressible:1.0|compressible:1",
            "compressible: 0.25|compressible:0.25",
    })
    void aCompressiblePayloadReadsBackAsWritten(String given, String written) {
        PayloadContent content = PayloadContent.parse(given, MAX);
        assertEquals(written, content.spec());
        assertEquals(content, PayloadContent.parse(content.spec(), MAX));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "compressible:1.5|compressible:R needs R from 0 to 1 (the random share of each body), got 'compressible:1.5'",
            "compressible:-0.1|compressible:R needs R from 0 to 1 (the random share of each body), got 'compressible:-0.1'",
            "compressible:half|compressible:R needs R from 0 to 1 (the random share of each body), got 'compressible:half'",
            "compressible:NaN|compressible:R needs R from 0 to 1 (the random share of each body), got 'compressible:NaN'",
            "zeros|expected random, compressible:R or file:PATH[,PATH...], got 'zeros'",
            "file:|file:PATH[,PATH...] names a file between each comma, got 'file:'",
    })
    void aBadValueIsOneLineNamingTheRuleAndTheValue(String given, String expected) {
        assertEquals(expected, assertThrows(IllegalArgumentException.class, () -> PayloadContent.parse(given, MAX))
                .getMessage());
    }

    @Test
    void aMissingFileOrOneShorterThanTheHeaderIsNamed() throws Exception {
        Path missing = dir.resolve("missing.data");
        assertEquals("payload file " + missing + " does not exist", assertThrows(IllegalArgumentException.class,
                () -> PayloadContent.parse("file:" + missing, MAX)).getMessage());
        Path shortFile = Files.write(dir.resolve("short.data"), new byte[31]);
        assertEquals("payload file " + shortFile + " is 31 B, shorter than the 32-byte header that replaces its first bytes",
                assertThrows(IllegalArgumentException.class, () -> PayloadContent.parse("file:" + shortFile, MAX))
                        .getMessage());
        Path big = Files.write(dir.resolve("big.data"), new byte[2048]);
        assertEquals("payload file " + big + " is 2048 B, more than a message's 1KiB",
                assertThrows(IllegalArgumentException.class, () -> PayloadContent.parse("file:" + big, 1024)).getMessage());
        assertEquals("payload file " + dir + " is a directory, not a file",
                assertThrows(IllegalArgumentException.class, () -> PayloadContent.parse("file:" + dir, MAX)).getMessage());
    }

    @Test
    void aCompressibleBodyIsItsShareOfRandomBytesAndZerosAfter() throws Exception {
        MessageSource messages = Payloads.of(PayloadContent.parse("compressible:0.1", MAX), MessageSizes.fixed(1032), 1)
                .messages(2);
        byte[] message = messages.next();
        // a body of 1,000 bytes: the first 100 from the pool, the rest zeros
        assertTrue(Arrays.equals(new byte[900], Arrays.copyOfRange(message, PayloadHeader.BYTES + 100, 1032)));
        assertFalse(Arrays.equals(new byte[8], Arrays.copyOfRange(message, PayloadHeader.BYTES + 92, PayloadHeader.BYTES + 100)));
        // an array that held a random body before is zeroed where the share ends
        Arrays.fill(message, (byte) 7);
        byte[] again = messages.next();
        assertSame(message, again);
        assertTrue(Arrays.equals(new byte[900], Arrays.copyOfRange(again, PayloadHeader.BYTES + 100, 1032)));
    }

    @Test
    void aCompressiblePayloadCompressesToItsRandomShareAndARandomOneNotAtAll() throws Exception {
        double random = deflatedShare("random");
        double tenth = deflatedShare("compressible:0.1");
        double half = deflatedShare("compressible:0.5");

        // the headers alone compress a little (a run key and a stream id repeated)
        assertTrue(random > 0.97, "random: " + random);
        // the random share, with the headers (a sequence and two times a message) and deflate's own few bytes on top
        assertTrue(tenth > 0.10 && tenth < 0.15, "compressible:0.1: " + tenth);
        assertTrue(half > 0.50 && half < 0.55, "compressible:0.5: " + half);
    }

    /** Deflated size over raw size of a batch of 200 messages of 1 KiB, headers written as a run writes them. */
    private static double deflatedShare(String payload) throws Exception {
        MessageSource messages = Payloads.of(PayloadContent.parse(payload, MAX), MessageSizes.fixed(1024), 3).messages(4);
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        long raw = 0;
        try (DeflaterOutputStream out = new DeflaterOutputStream(compressed, new Deflater(Deflater.BEST_COMPRESSION))) {
            for (int i = 0; i < 200; i++) {
                byte[] message = messages.next();
                PayloadHeader.write(message, RUN_KEY, 0, i, 1_000_000L * i);
                PayloadHeader.stampSendTime(message, 1_000_000L * i + 12_345);
                out.write(message);
                raw += message.length;
            }
        }
        return compressed.size() / (double) raw;
    }

    @Test
    void filesAreSentInTurnWithTheHeaderInPlaceOfTheirFirstBytes() throws Exception {
        byte[] first = filled(100, (byte) 'a');
        byte[] second = filled(40, (byte) 'b');
        Path a = Files.write(dir.resolve("a.data"), first);
        Path b = Files.write(dir.resolve("b.data"), second);
        PayloadContent content = PayloadContent.parse("file:" + a + "," + b, MAX);
        PayloadContent.FromFiles files = (PayloadContent.FromFiles) content;
        assertEquals("file:" + a + "," + b, content.spec());
        assertEquals("weights:40B=1,100B=1", files.sizes().spec());
        MessageSource messages = Payloads.of(content, files.sizes(), 1).messages(2);

        for (int i = 0; i < 4; i++) {
            byte[] message = messages.next();
            byte[] file = i % 2 == 0 ? first : second;
            assertEquals(file.length, message.length);
            PayloadHeader.write(message, RUN_KEY, 3, i, 77L * i);
            PayloadHeader.stampSendTime(message, 88L * i);
            assertTrue(PayloadHeader.isOfRun(message, 0, message.length, RUN_KEY));
            assertEquals(3, PayloadHeader.streamId(message, 0));
            assertEquals(i, PayloadHeader.sequence(message, 0));
            assertEquals(77L * i, PayloadHeader.intendedNanos(message, 0));
            assertEquals(88L * i, PayloadHeader.sentNanos(message, 0));
            assertArrayEquals(Arrays.copyOfRange(file, PayloadHeader.BYTES, file.length),
                    Arrays.copyOfRange(message, PayloadHeader.BYTES, message.length));
        }
        // the file's own bytes are never written: each thread sends copies
        assertArrayEquals(filled(100, (byte) 'a'), files.contents().get(0));
    }

    @Test
    void filesOfOneSizeMakeOneSize() throws Exception {
        Path a = Files.write(dir.resolve("a.data"), new byte[1024]);
        Path b = Files.write(dir.resolve("b.data"), new byte[1024]);
        assertEquals("1KiB", ((PayloadContent.FromFiles) PayloadContent.parse("file:" + a + "," + b, MAX)).sizes().spec());
    }

    @Test
    void theSizesOfFilePayloadsAreTheFiles() throws Exception {
        Path a = Files.write(dir.resolve("a.data"), new byte[100]);
        PayloadContent content = PayloadContent.parse("file:" + a, MAX);
        assertEquals("the sizes of file payloads are the files': 100B, not 1KiB", assertThrows(
                IllegalArgumentException.class, () -> Payloads.of(content, MessageSizes.fixed(1024), 1)).getMessage());
    }

    private static byte[] filled(int length, byte value) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, value);
        return bytes;
    }
}
