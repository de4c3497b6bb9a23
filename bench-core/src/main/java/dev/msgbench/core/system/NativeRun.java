package dev.msgbench.core.system;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one native run is: the commands, in order, and how its figure is read from their output.
 * The runner (bench-all's {@code native-tool run}) starts every listener, runs the setup steps (a
 * failed one ends the run without a figure), the measured steps (pinned, each bounded in time,
 * their exit status ignored: the output says whether they measured), stops the listeners, runs
 * the cleanup steps (which undo what the setup made), and then asks {@link #reader} for the figure.
 */
public record NativeRun(List<Step> steps, FigureReader reader) {

    public NativeRun {
        steps = List.copyOf(steps);
        Objects.requireNonNull(reader, "reader");
    }

    public enum Role {
        /**
         * Runs in the background from before the first setup step until the measured steps end; its
         * first line says it listens when it is the step's ready line (a subscriber's confirmation;
         * anything else, such as "Could not connect", is why it does not), and the rest of what it
         * prints is dropped (a subscriber prints every message).
         */
        LISTENER,
        /** Before the measured steps; a failure ends the run, without a figure. */
        SETUP,
        /** The load generator itself: pinned where asked, its exit status ignored. */
        MEASURED,
        /** After everything else, once the setup steps succeeded, whatever happened then; a failure is only reported. */
        CLEANUP
    }

    /**
     * @param name      how messages name the step: "ProducerPerformance", "topic cmp-17..."
     * @param role      when it runs
     * @param argv      the program and its arguments
     * @param logSuffix appended to the run's log file name for this step's output ("" for the run's
     *                  own log); steps with the same suffix share one file; a listener has none
     * @param readyLine a listener's first line when it listens (redis-cli's "psubscribe"); null for
     *                  the other roles. The line itself, not the process still running, decides: a
     *                  tool that prints an error may not have exited yet when its line is read
     */
    public record Step(String name, Role role, List<String> argv, String logSuffix, String readyLine) {

        public Step(String name, Role role, List<String> argv, String logSuffix) {
            this(name, role, argv, logSuffix, null);
        }

        public Step {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(role, "role");
            argv = List.copyOf(argv);
            if (argv.isEmpty()) {
                throw new IllegalArgumentException("step " + name + " has no command");
            }
            Objects.requireNonNull(logSuffix, "logSuffix");
            if ((role == Role.LISTENER) != (readyLine != null)) {
                throw new IllegalArgumentException("step " + name + ": a ready line for a listener, and only for one");
            }
        }

        public static Step listener(String name, List<String> argv, String readyLine) {
            return new Step(name, Role.LISTENER, argv, "", Objects.requireNonNull(readyLine, "readyLine"));
        }

        public static Step measured(String name, List<String> argv) {
            return new Step(name, Role.MEASURED, argv, "");
        }
    }

    /** The output of each step that ran, stdout and stderr together; "" for one that did not. */
    @FunctionalInterface
    public interface Outputs {
        String of(Step step);
    }

    /** Reads the figure from the steps' outputs; empty when they hold no final figure. */
    @FunctionalInterface
    public interface FigureReader {
        Optional<NativeFigure> read(Outputs outputs);
    }
}
