package dev.msgbench.pulsar.nativetool;

import java.util.Optional;

/**
 * The URL pulsar-perf is given: the broker's service URL and, for a broker the suite started, its
 * admin URL after {@value #ADMIN}, so that each run can delete the topic it filled. Without that,
 * a subscriber run's topic stays with its durable subscription until the broker stops: twelve runs
 * of 3,000,000 x 1 KiB filled the standalone's disk past its bookie's 95 % mark and the bookie
 * stopped taking writes (M2, 2026-11-30). A URL of the user's own broker has no admin part.
 */
public record PerfUrl(String serviceUrl, Optional<String> adminUrl) {

    static final String ADMIN = "#admin=";

    /** What the suite's launcher prints as its "native tool url". */
    public static String of(String serviceUrl, String adminUrl) {
        return serviceUrl + ADMIN + adminUrl;
    }

    static PerfUrl parse(String url) {
        int mark = url.indexOf(ADMIN);
        return mark < 0 ? new PerfUrl(url, Optional.empty())
                : new PerfUrl(url.substring(0, mark), Optional.of(url.substring(mark + ADMIN.length())));
    }
}
