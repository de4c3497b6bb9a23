package dev.msgbench.core.security;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.msgbench.core.Phrase;
import dev.msgbench.core.Setting;
import dev.msgbench.core.UserError;

/**
 * One run of the openssl command (installed with every Debian, and by ./scripts/setup), for what
 * --secure makes: throwaway certificates, a password's hash. A secret goes on its standard input,
 * never among its arguments, which any user of the machine can read.
 */
public final class Openssl {

    private static final long TIMEOUT_SECONDS = 30;

    private Openssl() {
    }

    /**
     * Runs {@code openssl ARGS} in {@code dir} and returns what it printed, stderr included.
     *
     * @param stdin what openssl reads on its standard input, or null for nothing
     * @param what  what it makes, for the messages: "a throwaway certificate"
     * @throws UserError when openssl is missing
     * @throws IOException when it fails, with its output
     */
    public static String run(Path dir, String stdin, String what, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add("openssl");
        command.addAll(List.of(args));
        Process process;
        try {
            process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UserError(Phrase.of("%s needs openssl to make " + what + "; install it (apt-get install openssl, "
                    + "or ./scripts/setup)", Setting.SECURE), e);
        }
        try {
            try (OutputStream in = process.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("openssl " + args[0] + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                throw new IOException("openssl " + String.join(" ", args) + " failed (exit " + process.exitValue() + "): "
                        + output);
            }
            return output;
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while openssl made " + what, e);
        }
    }
}
