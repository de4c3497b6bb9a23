package dev.msgbench.cli.live;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** One scrape of a metrics endpoint in the Prometheus text format: each sample's value by its name and labels. */
record Scrape(Map<String, Double> samples, String text) {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    static Scrape of(String url) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(url + " answered " + response.statusCode() + ": " + response.body());
        }
        return parse(response.body());
    }

    /** Samples as {@code name{label="value",...} value}, comments skipped; the labels as the exporter wrote them. */
    static Scrape parse(String text) {
        Map<String, Double> samples = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            String value = line.substring(space + 1);
            samples.put(line.substring(0, space), switch (value) {
                case "+Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                default -> Double.parseDouble(value);
            });
        }
        return new Scrape(samples, text);
    }

    /** The sample's value; fails when the scrape has no such sample. */
    double value(String sample) {
        Double value = samples.get(sample);
        if (value == null) {
            throw new AssertionError("no sample " + sample + " in\n" + text);
        }
        return value;
    }

    /** The one sample of this metric, whatever its labels (an info metric's). */
    String withName(String name) {
        return samples.keySet().stream().filter(s -> s.startsWith(name + "{")).findFirst()
                .orElseThrow(() -> new AssertionError("no sample of " + name + " in\n" + text));
    }
}
