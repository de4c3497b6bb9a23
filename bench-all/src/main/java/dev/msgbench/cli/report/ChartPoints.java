package dev.msgbench.cli.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A series thinned to at most so many points, for a run of hours: consecutive points are put in
 * equal buckets, each drawn at its middle, with the highest value of the bucket (latency: a spike
 * of one second stays visible) or their mean (rates: what the bucket did on the whole). A point
 * without a value (NaN: a second without deliveries) counts for nothing, and a bucket of none is
 * NaN, so that an outage longer than a bucket still breaks the line.
 */
public record ChartPoints(List<Double> xs, List<Double> ys) {

    static ChartPoints thin(List<Double> xs, List<Double> ys, int maxPoints, boolean highest) {
        if (xs.size() <= maxPoints) {
            return new ChartPoints(xs, ys);
        }
        List<Double> thinXs = new ArrayList<>(maxPoints);
        List<Double> thinYs = new ArrayList<>(maxPoints);
        int n = xs.size();
        for (int b = 0; b < maxPoints; b++) {
            int from = (int) ((long) b * n / maxPoints);
            int to = (int) ((long) (b + 1) * n / maxPoints);
            double y = highest ? Double.NEGATIVE_INFINITY : 0;
            int values = 0;
            for (int i = from; i < to; i++) {
                double value = ys.get(i);
                if (!Double.isNaN(value)) {
                    y = highest ? Math.max(y, value) : y + value;
                    values++;
                }
            }
            thinXs.add((xs.get(from) + xs.get(to - 1)) / 2);
            thinYs.add(values == 0 ? Double.NaN : highest ? y : y / values);
        }
        return new ChartPoints(thinXs, thinYs);
    }
}
