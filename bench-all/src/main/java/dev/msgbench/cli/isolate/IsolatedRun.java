package dev.msgbench.cli.isolate;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.msgbench.cli.ExitCode;
import dev.msgbench.cli.FlagNames;
import dev.msgbench.cli.ToolLaunch;
import dev.msgbench.core.broker.CleanupRegistry;
import dev.msgbench.core.net.IsolatedHosts;
import dev.msgbench.core.net.LinkShaping;
import dev.msgbench.core.net.Topology;

/**
 * The runner of an --isolate run: makes the hosts ({@link Topology}), then runs itself again, as
 * a child JVM inside the client host, with the same JVM flags and arguments, and {@link
 * IsolatedHosts#ENV} naming where each broker node goes. The child does the whole run; this JVM
 * waits for it, returns its exit code and removes the hosts, after the child has stopped its
 * brokers: on a normal end, an error and Ctrl+C (which reaches both).
 */
public final class IsolatedRun {

    /** A child that heard Ctrl+C stops its brokers (Kafka's take longest) and writes its results first. */
    private static final Duration CHILD_STOP_GRACE = Duration.ofSeconds(120);

    private IsolatedRun() {
    }

    /**
     * @param args  the command line of the run, the command first
     * @param nodes how many broker nodes need a host (--brokers)
     */
    public static int run(List<String> args, int nodes, LinkShaping shaping, PrintWriter out, PrintWriter err) {
        return runOn(Topology.create(nodes, shaping), args, out, err);
    }

    /**
     * As {@link #run}, on hosts with {@code clients} client hosts c1..cN: the run goes inside the
     * first; the others are for load generators started apart from it (`broker --isolate --clients N`).
     */
    public static int runWithClients(List<String> args, int clients, int nodes, LinkShaping shaping, PrintWriter out,
                              PrintWriter err) {
        return runOn(Topology.withClients(clients, nodes, shaping), args, out, err);
    }

    private static int runOn(Topology made, List<String> args, PrintWriter out, PrintWriter err) {
        try (Topology topology = made) {
            IsolatedHosts hosts = topology.hosts();
            err.println(hosts.describe(FlagNames.FLAGS));
            err.flush();
            Path descriptor = writeDescriptor(hosts);
            try {
                return runInside(hosts, descriptor, args, out, err);
            } finally {
                delete(descriptor);
            }
        }
    }

    private static int runInside(IsolatedHosts hosts, Path descriptor, List<String> args, PrintWriter out,
                                 PrintWriter err) {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", hosts.client().namespace(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(ToolLaunch.fromClassPath());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put(IsolatedHosts.ENV, descriptor.toString());
        // on a terminal the child draws its live line itself; captured output (tests, logs) is copied
        boolean terminal = System.console() != null;
        if (terminal) {
            builder.redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
        }
        Process child;
        try {
            child = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the run inside the client host: " + String.join(" ", command), e);
        }
        CleanupRegistry.Registration registration = CleanupRegistry.register("the run inside the client host",
                () -> awaitStop(child));
        List<Thread> copies = terminal ? List.of()
                : List.of(copy(child.getInputStream(), out, "stdout"), copy(child.getErrorStream(), err, "stderr"));
        try {
            int exit = child.waitFor();
            for (Thread copy : copies) {
                copy.join();
            }
            return exit;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            awaitStop(child);
            return ExitCode.INTERRUPTED.code();
        } finally {
            registration.deregister();
        }
    }

    /** TERM, then its grace to stop its brokers, then KILL: the hosts may only go once it has. */
    private static void awaitStop(Process child) {
        child.destroy();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    if (!child.waitFor(CHILD_STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                        child.destroyForcibly().waitFor();
                    }
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Thread copy(InputStream from, PrintWriter to, String what) {
        Thread thread = new Thread(() -> {
            char[] buffer = new char[8192];
            try (Reader in = new InputStreamReader(from, StandardCharsets.UTF_8)) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    to.write(buffer, 0, n);
                    to.flush();
                }
            } catch (IOException e) {
                to.println("msgbench: lost the run's " + what + ": " + e.getMessage());
                to.flush();
            }
        }, "msgbench-isolated-" + what);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Owner-only: it names the namespaces, which only root can enter anyway. */
    private static Path writeDescriptor(IsolatedHosts hosts) {
        try {
            Path file = Files.createTempFile("msgbench-hosts", ".properties",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            hosts.write(file);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the hosts of --isolate to a temp file", e);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + file, e);
        }
    }
}
