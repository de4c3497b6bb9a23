package dev.msgbench.redis.resp;

/** An error reply read as a value (an element of an array, or {@link RespReader#readValue()}'s result). */
public record RespError(String message) {
}
