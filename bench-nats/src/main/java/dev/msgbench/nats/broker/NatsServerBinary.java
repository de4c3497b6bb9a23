package dev.msgbench.nats.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.msgbench.core.UserError;

/**
 * The nats-server program the local broker runs, and its version.
 *
 * <p>A current server is preferred over Debian's 2.9.10, which has no fsync setting: first
 * {@value #ENV}, then {@code $GOPATH/bin} (where {@code go install}, i.e. scripts/setup, puts
 * one), then Debian's {@code /usr/sbin/nats-server}, then the PATH.
 *
 * @param path    the program
 * @param version as {@code nats-server --version} prints it, without the "v": "2.15.2"
 */
public record NatsServerBinary(Path path, String version) {

    public static final String ENV = "MSGBENCH_NATS_SERVER";
    private static final Pattern VERSION = Pattern.compile("v?(\\d+)\\.(\\d+)\\.(\\d+)\\S*");
    private static final long VERSION_TIMEOUT_SECONDS = 10;

    /** Finds the server as the class comment says. */
    public static NatsServerBinary find() {
        String override = System.getenv(ENV);
        if (override != null && !override.isBlank()) {
            Path path = Path.of(override);
            if (!Files.isExecutable(path)) {
                throw new UserError(ENV + "=" + override + " is not an executable file; point it to a nats-server binary or unset it");
            }
            return at(path);
        }
        for (Path candidate : candidates()) {
            if (Files.isExecutable(candidate)) {
                return at(candidate);
            }
        }
        throw new UserError("nats-server is not installed: apt-get install nats-server (or run scripts/setup, which "
                + "also builds a current one with Go), set " + ENV + " to a nats-server binary, or pass --url");
    }

    /** The server at {@code path}; runs it once with --version. */
    public static NatsServerBinary at(Path path) {
        String printed;
        try {
            Process process = new ProcessBuilder(path.toString(), "--version").redirectErrorStream(true).start();
            process.getOutputStream().close();
            if (!process.waitFor(VERSION_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new UserError(path + " --version did not answer within " + VERSION_TIMEOUT_SECONDS + " s; is it a nats-server?");
            }
            printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UserError("cannot run " + path + " --version: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while running " + path + " --version", e);
        }
        Matcher m = VERSION.matcher(printed);
        if (!m.find()) {
            throw new UserError(path + " --version printed '" + printed + "', not a nats-server version");
        }
        return new NatsServerBinary(path, m.group().replaceFirst("^v", ""));
    }

    /** Whether this server is {@code major.minor} or newer. */
    public boolean atLeast(int major, int minor) {
        return atLeast(version, major, minor);
    }

    /** Compares a version such as "2.9.10" or "2.10.0-beta" with {@code major.minor}. */
    public static boolean atLeast(String version, int major, int minor) {
        Matcher m = VERSION.matcher(version);
        if (!m.find()) {
            return false;
        }
        int ma = Integer.parseInt(m.group(1));
        int mi = Integer.parseInt(m.group(2));
        return ma > major || (ma == major && mi >= minor);
    }

    private static List<Path> candidates() {
        List<Path> list = new ArrayList<>();
        String gopath = System.getenv("GOPATH");
        if (gopath != null && !gopath.isBlank()) {
            list.add(Path.of(gopath.split(java.io.File.pathSeparator)[0], "bin", "nats-server"));
        }
        list.add(Path.of(System.getProperty("user.home"), "go", "bin", "nats-server"));
        list.add(Path.of("/usr/sbin/nats-server"));
        list.add(Path.of("/usr/bin/nats-server"));
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (!dir.isBlank()) {
                    list.add(Path.of(dir, "nats-server"));
                }
            }
        }
        return list;
    }
}
