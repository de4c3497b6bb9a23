package dev.msgbench.core.run;

import java.util.Locale;

import dev.msgbench.core.payload.MessageSizes;
import dev.msgbench.core.units.Sizes;

/**
 * How large a backlog the producers build before the consumers are released (--backlog):
 * a number of messages, or of bytes sent.
 *
 * @param messages the messages sent before the release; 0 when given in bytes
 * @param bytes    the bytes sent before the release; 0 when given in messages
 */
public record Backlog(long messages, long bytes) {

    private static final long MIB = 1L << 20;

    public Backlog {
        if ((messages > 0) == (bytes > 0) || messages < 0 || bytes < 0) {
            throw new IllegalArgumentException("a backlog is messages or bytes, above 0: " + messages + ", " + bytes);
        }
    }

    /**
     * "100000" (messages) or a size with a unit ("1GiB", "500MB", "64KiB"; "100B" is bytes).
     *
     * @throws IllegalArgumentException naming what is wrong with {@code text}
     */
    public static Backlog parse(String text) {
        String trimmed = text.trim();
        if (trimmed.matches("[0-9]+")) {
            long count = Long.parseLong(trimmed);
            if (count < 1) {
                throw new IllegalArgumentException("'" + text + "' is no backlog: give at least 1 message");
            }
            return new Backlog(count, 0);
        }
        long size = Sizes.parseBytes(trimmed);
        if (size < 1) {
            throw new IllegalArgumentException("'" + text + "' is no backlog: give at least 1 byte");
        }
        return new Backlog(0, size);
    }

    /**
     * A part of it, at least one message or byte (whole MiB from 1 MiB up, so that it reads as a
     * size): one load generator's share of a run split over several, or a run --scale shortens.
     */
    public Backlog scaled(double fraction) {
        if (messages > 0) {
            return new Backlog(Math.max(1, Math.round(messages * fraction)), 0);
        }
        double part = bytes * fraction;
        return new Backlog(0, part >= MIB ? Math.round(part / MIB) * MIB : Math.max(1, Math.round(part)));
    }

    /** As --backlog takes it: "100000" or "1GiB". */
    public String flagText() {
        return messages > 0 ? Long.toString(messages) : sizeText();
    }

    /**
     * The messages sent once the backlog is there: a size counts the mean message size of
     * {@code sizes} (exact for one size), since the producers count messages as they go.
     */
    long messagesToSend(MessageSizes sizes) {
        return messages > 0 ? messages : Math.max(1, (long) Math.ceil(bytes / sizes.meanBytes()));
    }

    /** As given: "100000 messages" or "1GiB". */
    public String describe() {
        if (messages > 0) {
            return String.format(Locale.US, "%d messages", messages);
        }
        return sizeText();
    }

    private String sizeText() {
        return bytes % (1L << 30) == 0 ? bytes / (1L << 30) + "GiB" : Sizes.format(bytes);
    }
}
