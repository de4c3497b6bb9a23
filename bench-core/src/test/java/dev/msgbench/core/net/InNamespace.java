package dev.msgbench.core.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A test's child JVM, in a network namespace or not, talking through its stdin and stdout. */
final class InNamespace implements AutoCloseable {

    private final Process process;
    private final BufferedReader out;
    private final PrintWriter in;

    private InNamespace(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /** @param namespace where to run it, or null for the test's own namespace */
    static InNamespace java(String namespace, Class<?> main, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        if (namespace != null) {
            command.addAll(List.of("ip", "netns", "exec", namespace));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new InNamespace(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
    }

    String readLine() throws IOException {
        String line = out.readLine();
        if (line == null) {
            throw new IOException("the child ended without a line; exit " + waitForExit());
        }
        return line;
    }

    void writeLine(String line) {
        in.println(line);
    }

    long pid() {
        return process.pid();
    }

    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    private int waitForExit() {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    @Override
    public void close() throws InterruptedException {
        in.close();
        kill();
    }
}
