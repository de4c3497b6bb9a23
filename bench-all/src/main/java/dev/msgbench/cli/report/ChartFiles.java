package dev.msgbench.cli.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;

/** A chart as PNG (embedded in the page, pasted into issues) and SVG (for print and READMEs). */
public final class ChartFiles {

    static {
        // charts are drawn on machines without a display (CI, servers)
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private ChartFiles() {
    }

    /** Writes FOLDER/STEM.png and FOLDER/STEM.svg; returns the PNG bytes. */
    static byte[] write(Charts.Chart chart, Path folder) {
        try {
            Files.createDirectories(folder);
            byte[] png = png(chart);
            Files.write(folder.resolve(chart.fileStem() + ".png"), png);
            try (OutputStream svg = Files.newOutputStream(folder.resolve(chart.fileStem() + ".svg"))) {
                VectorGraphicsEncoder.saveVectorGraphic(chart.xchart(), svg, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            }
            return png;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the chart " + chart.fileStem() + " into " + folder, e);
        }
    }

    static byte[] png(Charts.Chart chart) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BitmapEncoder.saveBitmap(chart.xchart(), out, BitmapEncoder.BitmapFormat.PNG);
        return out.toByteArray();
    }
}
