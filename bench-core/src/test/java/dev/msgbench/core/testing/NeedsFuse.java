package dev.msgbench.core.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class that mounts a forgetful disk (a FUSE file system, built with gcc from forgetfs.c
 * on first use), as root. {@code ./scripts/test --fast} ({@code mvn verify -Pfast}) leaves these
 * out, so the fast tier needs neither gcc nor libfuse3-dev.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(NeedsFuse.TAG)
public @interface NeedsFuse {

    /** The JUnit tag, as Surefire's groups and excludedGroups name it. */
    String TAG = "fuse";
}
