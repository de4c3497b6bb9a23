package dev.msgbench.core.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class that starts a broker: Kafka in a child JVM, nats-server, redis-server or
 * rabbitmq-server, itself or through the command line (which starts Kafka when no --system is
 * given). {@code ./scripts/test --fast} ({@code mvn verify -Pfast}) leaves these out; {@code
 * mvn verify -Dgroups=broker} runs only these.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(NeedsBroker.TAG)
public @interface NeedsBroker {

    /** The JUnit tag, as Surefire's groups and excludedGroups name it. */
    String TAG = "broker";
}
