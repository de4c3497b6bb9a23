package dev.msgbench.core.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class that opens a browser (headless Chromium). {@code ./scripts/test --fast} ({@code
 * mvn verify -Pfast}) leaves these out, so the fast tier needs nothing installed but a JDK and
 * Maven.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(NeedsBrowser.TAG)
public @interface NeedsBrowser {

    /** The JUnit tag, as Surefire's groups and excludedGroups name it. */
    String TAG = "browser";
}
