package dev.msgbench.cli.report;

import java.util.List;
import java.util.Map;

/**
 * The price of safety of one system at one durability setting: its latency at a stated rate,
 * the highest rate it sustains, and what it loses of what it acknowledged when the power goes.
 *
 * @param latency      null where the cell has no run without a fault (on plain disks)
 * @param onLayer      the same on forgetful disks, what the fault layer costs; null without such a run
 * @param knees        the knee of each sweep of the cell (usually one); empty without a sweep
 * @param highestRates the rate each throughput run of the cell sustained, acknowledged and
 *                     delivered (the lower of its two ends); empty without one
 * @param losses       by what the loss was measured after, the key that tells more first
 */
record SafetyCell(DurabilityCell cell, LatencyAtRate latency, LatencyAtRate onLayer, List<Double> knees,
                  List<Double> highestRates, Map<LossKey, LossFigure> losses) {

    /**
     * Latency at one rate: the cell's runs without a fault at the rate most of them ran at, their
     * histograms added where there are several.
     *
     * @param latencyMs as result.json's {@code latencyMs.latency} keys them
     */
    record LatencyAtRate(double rateMsgsPerSec, int runs, Map<String, Double> latencyMs) {

        Double ms(String percentile) {
            Double value = latencyMs.get(percentile);
            return value == null || value.isNaN() ? null : value;
        }
    }

    /** The highest knee, the one a chart marks; null without one. */
    Double knee() {
        return knees.stream().max(Double::compare).orElse(null);
    }

    /**
     * The rate the picture marks: the knee, which a latency objective bounds, else the lowest
     * highest rate of the throughput runs (the rate every one of them reached); null without either.
     */
    Double rate() {
        return knee() != null ? knee() : highestRates.stream().min(Double::compare).orElse(null);
    }
}
