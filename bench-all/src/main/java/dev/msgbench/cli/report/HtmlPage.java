package dev.msgbench.cli.report;

import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.msgbench.core.cpu.CpuContention;
import dev.msgbench.core.fault.FaultReport;
import dev.msgbench.core.result.Percentiles;
import dev.msgbench.core.result.RunResult;
import dev.msgbench.core.result.RunStatus;
import dev.msgbench.core.result.SummaryTable;

/**
 * The report page: charts first (what people look at), then the summary table, then every
 * setting of every run with durability first. Self-contained: styles inline, charts embedded as
 * PNG data, no fetches, so it opens offline and survives being mailed or attached to an issue.
 */
public final class HtmlPage {

    /** A drawn chart; {@code png} null when there was nothing to draw. */
    record Figure(String title, String fileStem, byte[] png) {
    }

    record RunFigures(RunFolder run, List<Figure> figures) {
    }

    /**
     * A view of all the runs together, drawn before them when there is one: the price of safety,
     * latency against offered load.
     *
     * @param html the section's table and notes, escaped already
     */
    record Section(String id, String heading, List<Figure> figures, String html) {
    }

    private static final String STYLE = """
            body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
            h1{font-size:22px} h2{font-size:18px;margin-top:32px} h3{font-size:15px}
            table{border-collapse:collapse;font-size:13px;margin:8px 0}
            th,td{border:1px solid #ddd;padding:3px 7px;text-align:right;white-space:nowrap}
            th:first-child,td:first-child{text-align:left}
            td.k{text-align:left;color:#555} td.v{text-align:left;white-space:normal}
            tr.durability td{background:#fff6e0} table.views th{white-space:normal;max-width:160px}
            .warn{color:#a00} .note{color:#666;font-size:13px}
            img.chart{max-width:100%;border:1px solid #eee}
            """;

    /** Marks, once the page has loaded, how many charts the browser decoded: the page test reads it. */
    private static final String RENDER_CHECK = """
            window.addEventListener('load',function(){var n=0;document.querySelectorAll('img.chart')
            .forEach(function(i){if(i.complete&&i.naturalWidth>0){n++;}});document.body.setAttribute('data-charts-rendered',n);});
            """;

    private HtmlPage() {
    }

    /**
     * @param runs    the runs whose result was read: the summary and settings are theirs
     * @param perRun  the over-time charts of every run, also of those drawn from their interval log alone
     * @param leftOut what could not be read, a line each
     */
    static String render(String title, List<RunFolder> runs, List<Figure> percentiles, List<RunFigures> perRun,
                         List<String> leftOut, String chartFolder) {
        return render(title, List.of(), runs, percentiles, perRun, leftOut, chartFolder);
    }

    /**
     * As {@link #render(String, List, List, List, List, String)}, the views of all runs together
     * first; a page of sweeps alone has no runs, and then no section of them.
     */
    static String render(String title, List<Section> sections, List<RunFolder> runs, List<Figure> percentiles,
                         List<RunFigures> perRun, List<String> leftOut, String chartFolder) {
        StringBuilder b = new StringBuilder(1 << 16);
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(esc(title))
                .append("</title>\n<style>").append(STYLE).append("</style>\n<script>").append(RENDER_CHECK)
                .append("</script></head>\n<body>\n<h1>").append(esc(title)).append("</h1>\n");
        boolean tunes = sections.stream().anyMatch(s -> s.id().startsWith("tune-"));
        String counted = runs.isEmpty() && !sections.isEmpty() ? (tunes ? "Sweeps and tunes only" : "Sweeps only")
                : runs.size() + (runs.size() == 1 ? " run" : " runs");
        b.append("<p class=\"note\">").append(counted)
                .append("; written ").append(Instant.now().toString().replaceAll("\\.\\d+Z$", "Z"))
                .append(". Latency is response time: receive time minus the <em>intended</em> send time"
                        + " (free of coordinated omission). Each chart is also in ").append(esc(chartFolder))
                .append("/ as PNG and SVG.</p>\n");
        for (String line : leftOut) {
            b.append("<p class=\"warn leftout\">Left out: ").append(esc(line)).append("</p>\n");
        }
        for (Section section : sections) {
            b.append("<h2 id=\"").append(esc(section.id())).append("\">").append(esc(section.heading())).append("</h2>\n");
            section.figures().forEach(f -> figure(b, f));
            b.append(section.html());
        }
        if (perRun.isEmpty()) {
            return b.append("</body></html>\n").toString();
        }
        b.append("<h2>Latency by percentile</h2>\n");
        for (Figure f : percentiles) {
            figure(b, f);
        }
        b.append("<p class=\"note\">Lower is better; the curve furthest up on the right has the worst tail."
                + " Vertical lines: p50, p90, p99, p99.9, p99.99, p99.999.</p>\n");
        summary(b, runs);
        b.append("<h2>Over time</h2>\n");
        for (RunFigures rf : perRun) {
            b.append("<h3>").append(esc(rf.run().label())).append("</h3>\n");
            for (Figure f : rf.figures()) {
                figure(b, f);
            }
            gaps(b, rf.run());
            faults(b, rf.run());
        }
        b.append("<h2>Settings</h2>\n");
        for (RunFolder run : runs) {
            settings(b, run);
        }
        b.append("</body></html>\n");
        return b.toString();
    }

    /** The seconds shaded as "no delivery" on the run's charts, on their time base. */
    private static void gaps(StringBuilder b, RunFolder run) {
        List<NoDeliveryGaps.Span> gaps = NoDeliveryGaps.of(run.intervals());
        if (gaps.isEmpty()) {
            return;
        }
        TimeBase time = TimeBase.of(run);
        b.append("<p class=\"note gaps\">No delivery (shaded): ");
        for (int i = 0; i < gaps.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(String.format(Locale.US, "%.1f s to %.1f s",
                    time.fromLog(gaps.get(i).fromSeconds()), time.fromLog(gaps.get(i).toSeconds())));
        }
        b.append(" from the end of the warm-up, to the log's second: whole seconds in which nothing arrived while messages"
                + " were due (a fault's exact time without delivery is in its line below).</p>\n");
    }

    /** Each fault of a run, as the summary printed it; the charts mark them with labelled lines. */
    private static void faults(StringBuilder b, RunFolder run) {
        if (!run.whole() || run.result().faults().isEmpty() && run.result().backlog() == null) {
            return;
        }
        b.append("<ul class=\"faults\">\n");
        for (FaultReport fault : run.result().faults()) {
            b.append("<li>").append(esc(SummaryTable.faultLine(fault))).append("</li>\n");
        }
        if (run.result().backlog() != null) {
            b.append("<li>").append(esc(SummaryTable.backlogLine(run.result().backlog()))).append("</li>\n");
        }
        b.append("</ul>\n");
    }

    private static void figure(StringBuilder b, Figure f) {
        if (f.png() == null) {
            b.append("<p class=\"note\">").append(esc(f.title())).append(": nothing recorded.</p>\n");
            return;
        }
        b.append("<figure><img class=\"chart\" id=\"").append(esc(f.fileStem())).append("\" alt=\"")
                .append(esc(f.title())).append("\" src=\"data:image/png;base64,")
                .append(Base64.getEncoder().encodeToString(f.png())).append("\"></figure>\n");
    }

    private static void summary(StringBuilder b, List<RunFolder> runs) {
        b.append("<h2>Summary</h2>\n<div style=\"overflow-x:auto\"><table id=\"summary\"><tr><th>run</th><th>status</th><th>target/s</th>"
                + "<th>sent/s</th><th>received/s</th>");
        for (Map.Entry<String, Double> p : Percentiles.REPORTED) {
            b.append("<th>").append(p.getKey()).append(" ms</th>");
        }
        b.append("<th>max ms</th><th>sent</th><th>lost</th><th>of them acknowledged</th><th>dup</th><th>reordered</th>"
                + "<th>cpu busy</th></tr>\n");
        for (RunFolder run : runs) {
            RunResult r = run.result();
            b.append("<tr><td>").append(esc(run.label())).append("</td><td")
                    .append(r.status() == RunStatus.COMPLETE ? ">" : " class=\"warn\">").append(esc(r.status().label()))
                    .append("</td>").append(cell(r.rates().targetMsgsPerSec(), "%,.0f"))
                    .append(cell(r.rates().achievedMsgsPerSec(), "%,.0f"))
                    .append(cell(r.rates().receivedMsgsPerSec(), "%,.0f"));
            Map<String, Double> lat = r.latenciesMs().latency() == null ? Map.of() : r.latenciesMs().latency();
            for (Map.Entry<String, Double> p : Percentiles.REPORTED) {
                b.append(cell(lat.get(p.getKey()), "%.3f"));
            }
            b.append(cell(lat.get("max"), "%.3f")).append(cell(r.counts().sent(), "%,.0f"))
                    .append("<td").append(r.counts().lost() > 0 ? " class=\"warn\">" : ">").append(r.counts().lost()).append("</td>")
                    .append("<td").append(r.counts().acknowledgedLost() > 0 ? " class=\"warn\">" : ">")
                    .append(r.counts().acknowledgedLost()).append("</td>")
                    .append(cell(r.counts().duplicated(), "%,.0f")).append(cell(r.counts().reordered(), "%,.0f"))
                    .append("<td").append(CpuContention.disturbed(r.cpu()) ? " class=\"warn\">" : ">")
                    .append(esc(CpuContention.brief(r.cpu()))).append("</td></tr>\n");
        }
        b.append("</table></div>\n");
        b.append(CommitTable.html(runs)).append(BrokerBytesTable.html(runs));
        for (RunFolder run : runs) {
            List<String> warnings = run.result().warnings();
            if (warnings != null) {
                for (String w : warnings) {
                    b.append("<p class=\"warn\">").append(esc(run.label())).append(": ").append(esc(w)).append("</p>\n");
                }
            }
        }
    }

    /** Durability first: it decides whether two latencies may be compared at all. */
    private static void settings(StringBuilder b, RunFolder run) {
        RunResult r = run.result();
        b.append("<h3>").append(esc(run.label())).append("</h3>\n<p class=\"note\">").append(esc(run.dir().toString()))
                .append("</p>\n<table class=\"settings\">\n");
        rows(b, "durability", r.durability(), true);
        rows(b, "workload", r.workload() == null ? null : ResultJson.asMap(r.workload()), false);
        rows(b, "settings", r.settings(), false);
        rows(b, "versions", r.versions(), false);
        rows(b, "broker", r.broker(), false);
        rows(b, "environment", r.environment(), false);
        rows(b, "load generator", r.loadGenerator(), false);
        rows(b, "cpu", r.cpu(), false);
        b.append("</table>\n");
    }

    private static void rows(StringBuilder b, String group, Map<String, ?> values, boolean durability) {
        if (values == null || values.isEmpty()) {
            return;
        }
        for (Map.Entry<String, ?> e : values.entrySet()) {
            b.append("<tr").append(durability ? " class=\"durability\"" : "").append("><td class=\"k\">")
                    .append(esc(group)).append("</td><td class=\"k\">").append(esc(e.getKey()))
                    .append("</td><td class=\"v\">").append(esc(String.valueOf(e.getValue()))).append("</td></tr>\n");
        }
    }

    static String cell(Double value, String format) {
        if (value == null || value.isNaN()) {
            return "<td>-</td>";
        }
        return "<td>" + String.format(Locale.US, format, value) + "</td>";
    }

    private static String cell(double value, String format) {
        return cell(Double.valueOf(value), format);
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
