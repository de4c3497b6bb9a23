package dev.msgbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

/**
 * One headless Chromium process, isolated (own profile, no network chatter, no sandbox: tests run
 * as root), for the tests that open a report as a person would (@NeedsBrowser).
 */
record HeadlessChromium(String stdout, String stderr) {

    /** Where the pages and their screenshots are kept for a look. */
    private static final Path KEPT = Path.of("target", "report-page");

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

    /**
     * Opens the report page {@code html} as a person would: a screenshot 1280 pixels wide and
     * {@code height} high, kept with the page in target/report-page/ as {@code name}.png and .html,
     * shows more than a blank page, the browser decoded all {@code charts} charts (the page's own
     * check), and no script failed.
     */
    static void assertRendersEveryChart(Path tmp, Path html, String name, int height, int charts) throws Exception {
        Files.createDirectories(KEPT);
        Path screenshot = KEPT.resolve(name + ".png").toAbsolutePath();
        Files.deleteIfExists(screenshot);
        Files.copy(html, KEPT.resolve(name + ".html"), StandardCopyOption.REPLACE_EXISTING);
        String url = html.toUri().toString();

        HeadlessChromium shot = run(tmp, "--screenshot=" + screenshot, "--window-size=1280," + height, url);
        HeadlessChromium dom = run(tmp, "--dump-dom", "--virtual-time-budget=5000", url);

        assertTrue(Files.isRegularFile(screenshot), "no screenshot: " + shot.stderr());
        BufferedImage image = ImageIO.read(screenshot.toFile());
        assertEquals(1280, image.getWidth());
        assertTrue(Files.size(screenshot) > 50_000, "a screenshot of charts is not tiny: " + Files.size(screenshot));
        assertTrue(distinctColours(image) > 50, "the screenshot shows more than a blank page");
        assertTrue(dom.stdout().contains("data-charts-rendered=\"" + charts + "\""), "all " + charts + " charts decoded: "
                + dom.stdout().substring(0, Math.min(300, dom.stdout().length())));
        for (HeadlessChromium c : List.of(shot, dom)) {
            assertFalse(c.stderr().contains("Uncaught"), "script error: " + c.stderr());
        }
    }

    /** Colours in a screenshot, every third pixel: a blank or broken page has a handful. */
    private static int distinctColours(BufferedImage image) {
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }
}
