package dev.msgbench.core.broker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

/** Main classes that the tests run in child JVMs. */
final class ChildMains {

    private ChildMains() {
    }

    /** Sleeps until stopped. */
    static final class Sleeper {
        public static void main(String[] args) throws InterruptedException {
            Thread.sleep(Duration.ofMinutes(10).toMillis());
        }
    }

    /** Starts a {@link Sleeper} grandchild, writes its pid to {@code args[0]}, then sleeps. */
    static final class StartsASleeper {
        public static void main(String[] args) throws IOException, InterruptedException {
            Path pidFile = Path.of(args[0]);
            ManagedProcess sleeper = new JavaChild("sleeper", Sleeper.class.getName(), List.of("-Xmx32m"), List.of(),
                    null, pidFile.resolveSibling("sleeper.log"), null).start();
            Files.writeString(pidFile.resolveSibling("pid.partial"), Long.toString(sleeper.pid()));
            Files.move(pidFile.resolveSibling("pid.partial"), pidFile);
            Thread.sleep(Duration.ofMinutes(10).toMillis());
        }
    }

    /** Writes its class path to {@code args[0]}, and on a second line whether it sees {@link JavaChild}. */
    static final class ReportsItsClassPath {
        public static void main(String[] args) throws IOException {
            boolean seesJavaChild;
            try {
                Class.forName("dev.msgbench.core.broker.JavaChild");
                seesJavaChild = true;
            } catch (ClassNotFoundException e) {
                seesJavaChild = false;
            }
            Files.writeString(Path.of(args[0]), System.getProperty("java.class.path") + "\n" + seesJavaChild + "\n");
        }
    }

    /** Registers three resources, deregisters the second, and returns: the hook closes the rest. */
    static final class RegistersAndExits {
        public static void main(String[] args) {
            Path out = Path.of(args[0]);
            CleanupRegistry.register("first", () -> append(out, "first"));
            CleanupRegistry.Registration second = CleanupRegistry.register("second", () -> append(out, "second"));
            CleanupRegistry.register("third", () -> append(out, "third"));
            second.deregister();
        }

        private static void append(Path out, String line) throws IOException {
            Files.writeString(out, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }
}
