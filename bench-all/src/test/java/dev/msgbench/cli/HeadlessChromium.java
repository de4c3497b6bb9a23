package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.fail;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One headless Chromium process, isolated (own profile, no network chatter, no sandbox: tests run
 * as root), for the tests that open a report as a person would (@NeedsBrowser).
 */
record HeadlessChromium(String stdout, String stderr) {

    static HeadlessChromium run(Path tmp, String... args) throws Exception {
        String binary = Files.isExecutable(Path.of("/usr/bin/chromium")) ? "/usr/bin/chromium" : null;
        if (binary == null) {
            fail("chromium is not installed: run scripts/setup (Debian package 'chromium')");
        }
        Path profile = Files.createTempDirectory(tmp, "chromium-profile-");
        List<String> command = new ArrayList<>(List.of(binary, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--no-first-run", "--disable-component-update", "--disable-sync",
                "--enable-logging=stderr", "--v=0", "--user-data-dir=" + profile));
        command.addAll(List.of(args));
        Path out = tmp.resolve(profile.getFileName() + ".out");
        Path err = tmp.resolve(profile.getFileName() + ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("chromium did not finish within 60 s: " + Files.readString(err));
        }
        return new HeadlessChromium(Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Colours in a screenshot, every third pixel: a blank or broken page has a handful. */
    static int distinctColours(BufferedImage image) {
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }
}
