package dev.msgbench.core.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test that takes more than about a second of the real clock: a loopback run of its own, a day of
 * intervals written and read back, a connection that must time out. {@code ./scripts/test --fast}
 * ({@code mvn verify -Pfast}) leaves these out, so that the edit-compile-test loop stays under a
 * minute; the full tier runs them with everything else.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(TakesSeconds.TAG)
public @interface TakesSeconds {

    /** The JUnit tag, as Surefire's groups and excludedGroups name it. */
    String TAG = "seconds";
}
