package dev.msgbench.kafka;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

import dev.msgbench.core.UserError;
import dev.msgbench.core.driver.Acks;
import dev.msgbench.core.units.Durations;

/**
 * How a run's producers commit in transactions (--transactions, --abort-every): each producer
 * stream on two transactional producers that take turns, so that the schedule never waits for a
 * commit ({@link TransactionalPublisher}).
 *
 * @param messages   messages per transaction, or 0 when a transaction is closed by time
 * @param time       how long a transaction stays open from its first message, or null when closed by count
 * @param abortEvery every Nth transaction of a stream is aborted on purpose; 0 for none
 */
public record KafkaTransactions(int messages, Duration time, int abortEvery) {

    /** Far above any useful transaction: a bigger one would hold the broker's producer state for minutes. */
    static final int MAX_MESSAGES = 10_000_000;
    /** Kafka's own default transaction.timeout.ms: a transaction open longer is aborted by the broker. */
    static final Duration MAX_TIME = Duration.ofMinutes(1);

    public KafkaTransactions {
        if ((messages > 0) == (time != null) || messages < 0 || abortEvery < 0) {
            throw new IllegalArgumentException("messages or time, not both: " + messages + ", " + time);
        }
    }

    /**
     * --transactions as written: a count of messages ({@code 100}) or a time ({@code 50ms}).
     *
     * @throws UserError naming the flag, the rule and the value
     */
    public static KafkaTransactions parse(String size, int abortEvery) {
        String value = size.strip();
        if (value.matches("[0-9]+")) {
            long count;
            try {
                count = Long.parseLong(value);
            } catch (NumberFormatException e) {
                count = Long.MAX_VALUE;
            }
            if (count < 1 || count > MAX_MESSAGES) {
                throw new UserError("--transactions must be 1 to " + MAX_MESSAGES + " messages, or a time such as 50ms, got '"
                        + size + "'");
            }
            return new KafkaTransactions((int) count, null, abortEvery);
        }
        Duration time;
        try {
            time = Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new UserError("--transactions must be a count of messages (100) or a time (50ms), got '" + size + "'");
        }
        if (time.isZero() || time.compareTo(MAX_TIME) >= 0) {
            throw new UserError("--transactions must be a time longer than 0 and shorter than "
                    + Durations.format(MAX_TIME) + " (Kafka's transaction.timeout.ms aborts longer ones), got '" + size + "'");
        }
        return new KafkaTransactions(0, time, abortEvery);
    }

    /**
     * The transactions' flags as given (each null when not given), against the producer they need:
     * Kafka's transactions need the idempotent producer, and ids of the run's own.
     *
     * @param acks null where the system's default is taken
     * @throws UserError naming the flag, the rule and the value
     */
    static void check(String transactions, Integer abortEvery, String isolationLevel, Acks acks,
                      Map<String, String> producerProps) {
        if (isolationLevel != null && !isolationLevel.equals("read_committed") && !isolationLevel.equals("read_uncommitted")) {
            throw new UserError("--isolation-level must be read_committed or read_uncommitted, got '" + isolationLevel + "'");
        }
        if (transactions == null) {
            if (abortEvery != null) {
                throw new UserError("--abort-every " + abortEvery + " aborts transactions: give --transactions too");
            }
            return;
        }
        if (abortEvery != null && abortEvery < 1) {
            throw new UserError("--abort-every must be at least 1 (every transaction), got " + abortEvery);
        }
        parse(transactions, abortEvery == null ? 0 : abortEvery);
        if (acks != null && acks != Acks.ALL) {
            throw new UserError("--transactions needs --acks all (Kafka's transactions need the idempotent producer, "
                    + "which waits for every in-sync replica), got --acks " + acks.flagValue());
        }
        if ("false".equalsIgnoreCase(producerProps.get("enable.idempotence"))) {
            throw new UserError("--transactions needs the idempotent producer: drop --producer-prop enable.idempotence=false");
        }
        if (producerProps.containsKey("transactional.id")) {
            throw new UserError("--producer-prop transactional.id: --transactions gives each producer an id of the run's "
                    + "own; drop the property");
        }
    }

    /** As written in the result: {@code 100 messages} or {@code 50ms}. */
    public String label() {
        return messages > 0 ? String.format(Locale.US, "%d messages", messages) : Durations.format(time);
    }
}
