package dev.msgbench.core.payload;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The header every message carries at the start of its payload, so that latency and loss are
 * computed by the core from what actually arrived, never by a driver.
 *
 * <pre>
 * offset  size  field
 *      0     4  run key: random per run, never 0, so messages left over from
 *               another run (or written by another tool) are told apart

 *      4     4  stream id
 *      8     8  sequence number within the stream, from 0
 *     16     8  intended send time (NanoClock ns)
 *     24     8  actual send time (NanoClock ns)
 * </pre>
 *
 * This is format 1. Little-endian, read and written in place with no allocation.
 */
public final class PayloadHeader {

    public static final int BYTES = 32;

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BUFFER_INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BUFFER_LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final int STREAM = 4;
    private static final int SEQUENCE = 8;
    private static final int INTENDED = 16;
    private static final int SENT = 24;

    private PayloadHeader() {
    }

    /** Writes everything but the actual send time, which is stamped just before sending. */
    public static void write(byte[] message, int runKey, int streamId, long sequence, long intendedNanos) {
        INT.set(message, 0, runKey);
        INT.set(message, STREAM, streamId);
        LONG.set(message, SEQUENCE, sequence);
        LONG.set(message, INTENDED, intendedNanos);
    }

    public static void stampSendTime(byte[] message, long sentNanos) {
        LONG.set(message, SENT, sentNanos);
    }

    /** Whether the bytes are a message of the run with this key. */
    public static boolean isOfRun(byte[] data, int offset, int length, int runKey) {
        return length >= BYTES && (int) INT.get(data, offset) == runKey;
    }

    public static int streamId(byte[] data, int offset) {
        return (int) INT.get(data, offset + STREAM);
    }

    public static long sequence(byte[] data, int offset) {
        return (long) LONG.get(data, offset + SEQUENCE);
    }

    public static long intendedNanos(byte[] data, int offset) {
        return (long) LONG.get(data, offset + INTENDED);
    }

    public static long sentNanos(byte[] data, int offset) {
        return (long) LONG.get(data, offset + SENT);
    }

    /** Reads from {@code data.position()}; the position is left unchanged. */
    public static boolean isOfRun(ByteBuffer data, int runKey) {
        return data.remaining() >= BYTES && (int) BUFFER_INT.get(data, data.position()) == runKey;
    }

    public static int streamId(ByteBuffer data) {
        return (int) BUFFER_INT.get(data, data.position() + STREAM);
    }

    public static long sequence(ByteBuffer data) {
        return (long) BUFFER_LONG.get(data, data.position() + SEQUENCE);
    }

    public static long intendedNanos(ByteBuffer data) {
        return (long) BUFFER_LONG.get(data, data.position() + INTENDED);
    }

    public static long sentNanos(ByteBuffer data) {
        return (long) BUFFER_LONG.get(data, data.position() + SENT);
    }
}
