package dev.msgbench.cli.report;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.font.TextLayout;
import java.awt.geom.Rectangle2D;

import org.knowm.xchart.internal.chartpart.Annotation;

/**
 * A span of the x axis shaded over the plot's whole height, its label at the top: a time with
 * no delivery. XChart 3.8.8 has no such annotation, and an Area series cannot serve: it fills down
 * to y = 0 of its axis, which on a log axis is 1 ms, so the band would stop short of every latency
 * under a millisecond. Its base class is XChart's own, for annotations drawn on the plot.
 */
final class SpanBand extends Annotation {

    private static final int LABEL_PADDING = 4;

    private final double from;
    private final double to;
    private final String label;
    private final Color fill;

    /** {@code from} and {@code to} in the chart's x values. */
    SpanBand(double from, double to, String label, Color fill) {
        super(false);
        this.from = from;
        this.to = to;
        this.label = label;
        this.fill = fill;
    }

    double from() {
        return from;
    }

    double to() {
        return to;
    }

    String label() {
        return label;
    }

    @Override
    public void paint(Graphics2D g) {
        if (!isVisible) {
            return;
        }
        int left = getXAxisScreenValue(from);
        int right = getXAxisScreenValue(to);
        // screen y grows downwards: the axis' minimum is the plot's top edge
        int top = getYAxisScreenValueForMin();
        int bottom = getYAxisScreenValueForMax();
        g.setColor(fill);
        g.fillRect(left, top, Math.max(1, right - left), bottom - top);
        Font font = styler.getAnnotationTextFont();
        TextLayout text = new TextLayout(label, font, g.getFontRenderContext());
        Rectangle2D size = text.getBounds();
        g.setColor(styler.getAnnotationTextFontColor());
        text.draw(g, (float) ((left + right - size.getWidth()) / 2), (float) (top + LABEL_PADDING + size.getHeight()));
        bounds = new Rectangle2D.Double(left, top, right - left, bottom - top);
    }
}
