package dev.msgbench.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import dev.msgbench.core.testing.InMemorySystem;

/**
 * A run whose system delivered nothing for two seconds (a 2.5 s pause, in memory, on a fake
 * clock: 1 s of warm-up, the pause asked 1 s into the measured 5 s), as its over-time charts
 * draw it: the latency lines broken over the empty seconds, those seconds shaded "no delivery",
 * and the pause's line where the data has it, every chart counting from the end of the warm-up.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OverTimeChartsTest {

    @TempDir
    static Path dir;

    static RunFolder paused;

    @BeforeAll
    static void pauseARun() throws Exception {
        paused = RunFolder.read(Fixtures.faulted(dir.resolve("paused"), "pause=2500ms@1s", InMemorySystem::new), "paused");
    }

    @Test
    void theLatencyLinesAreBrokenOverTheSecondsWithoutADelivery() {
        XYChart chart = OverTimeCharts.latencyOverTime(paused, 0).xchart();

        for (String name : List.of("p50", "p99", "max")) {
            XYSeries series = chart.getSeriesMap().get(name);
            // the middle of each second of the log, from the warm-up's start at -1 s; the last is a little shorter
            assertEquals("[-0.5, 0.5, 1.5, 2.5, 3.5]", Arrays.toString(Arrays.copyOf(series.getXData(), 5)), name);
            assertEquals(6, series.getXData().length, name);
            assertTrue(Double.isNaN(series.getYData()[2]) && Double.isNaN(series.getYData()[3]),
                    name + " has no value in the seconds from 1 to 3: " + Arrays.toString(series.getYData()));
            assertTrue(series.getYData()[4] > 1000, name + " after the pause: " + Arrays.toString(series.getYData()));
        }
    }

    @Test
    void theSecondsWithoutADeliveryAreOneBandOnBothChartsWhereThePausesLineIs() {
        List<SpanBand> bands = OverTimeCharts.gapBands(paused);

        assertEquals(1, bands.size());
        assertEquals(1.0, bands.get(0).from());
        assertEquals(3.0, bands.get(0).to());
        assertEquals("no delivery", bands.get(0).label());
        // the pause was asked 1 s after the warm-up (result.json), where the first empty second starts
        assertEquals(List.of(new OverTimeCharts.FaultMarker(1.0, "pause n1")), OverTimeCharts.faultMarkers(paused));
        assertEquals(1.0, paused.result().faults().get(0).event().askedAtSeconds());
    }

    @Test
    void bothChartsCountFromTheEndOfTheWarmupAndSaySo() throws Exception {
        for (Charts.Chart chart : List.of(OverTimeCharts.latencyOverTime(paused, 0), OverTimeCharts.throughputOverTime(paused, 0))) {
            XYChart x = chart.xchart();
            assertEquals("seconds from the end of the warm-up (the warm-up is negative; faults count from 0 too)",
                    x.getXAxisTitle(), chart.fileStem());
            assertEquals(-1.0, x.getStyler().getXAxisMin(), chart.fileStem());
            assertTrue(chart.title().endsWith("(warm-up: the 1.0 s before the grey line at 0)"), chart.title());
            double first = x.getSeriesMap().values().iterator().next().getXData()[0];
            assertEquals(-0.5, first, 1e-9, chart.fileStem() + ": the warm-up's first second is drawn at its middle");
            assertTrue(ChartFiles.write(chart, dir.resolve("charts")).length > 0, chart.fileStem());
        }
    }

    @Test
    void theBandIsPaintedOverThePlotAndNotOnAChartWithoutAGap() throws Exception {
        RunFolder steady = RunFolder.read(Fixtures.run(dir.resolve("unbroken"), "nats", 1000), "steady");

        int shaded = bandPixels(OverTimeCharts.latencyOverTime(paused, 0));

        // two of the chart's seven seconds, over the plot's height: thousands of pixels
        assertTrue(shaded > 5_000, shaded + " pixels of the band's colour");
        assertEquals(0, bandPixels(OverTimeCharts.latencyOverTime(steady, 0)));
    }

    /** Pixels of the band's colour, its translucent orange over the white plot. */
    private static int bandPixels(Charts.Chart chart) throws Exception {
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(ChartFiles.png(chart)));
        Color band = new Color(0xF7, 0xE1, 0xCF);
        int count = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                Color c = new Color(image.getRGB(x, y));
                if (Math.abs(c.getRed() - band.getRed()) + Math.abs(c.getGreen() - band.getGreen())
                        + Math.abs(c.getBlue() - band.getBlue()) <= 12) {
                    count++;
                }
            }
        }
        return count;
    }

    @Test
    void thePageSaysWhichSecondsAreShaded() {
        String page = HtmlPage.render("t", List.of(paused), List.of(), List.of(new HtmlPage.RunFigures(paused, List.of())),
                List.of(), "charts");

        assertTrue(page.contains("<p class=\"note gaps\">No delivery (shaded): 1.0 s to 3.0 s from the end of the warm-up,"),
                page);
        assertTrue(page.contains("<li>fault pause=2500ms@1s (node 1): asked 1.000 s, done 1.000 s, ended 3.500 s;"), page);
    }

    @Test
    void aRunWithoutAGapHasNoBandAndUnbrokenLines() throws Exception {
        RunFolder steady = RunFolder.read(Fixtures.run(dir.resolve("steady"), "nats", 1000), "steady");

        assertEquals(List.of(), OverTimeCharts.gapBands(steady));
        XYSeries p50 = OverTimeCharts.latencyOverTime(steady, 0).xchart().getSeriesMap().get("p50");
        assertTrue(Arrays.stream(p50.getYData()).noneMatch(Double::isNaN), Arrays.toString(p50.getYData()));
        assertEquals(-0.5, OverTimeCharts.latencyOverTime(steady, 0).xchart().getStyler().getXAxisMin());
    }
}
