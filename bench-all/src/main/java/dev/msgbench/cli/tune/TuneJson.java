package dev.msgbench.cli.tune;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.msgbench.cli.repeats.SpreadTable;
import dev.msgbench.core.analysis.RunsVerdict;

/** The sets of tune.json: per set and figure the median run, the spread and each run's value, and the verdicts. */
final class TuneJson {

    private TuneJson() {
    }

    static List<Map<String, Object>> sets(List<TuneSet> sets, Map<String, String> bases) {
        Map<String, TuneSet> byId = new LinkedHashMap<>();
        sets.forEach(s -> byId.put(s.id(), s));
        List<Map<String, Object>> list = new ArrayList<>();
        for (TuneSet set : sets) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", set.id());
            json.put("jdk", set.jdk());
            json.put("flagSet", set.flagSet());
            json.put("flags", set.flags());
            json.put("runs", set.runs().size());
            json.put("complete", set.complete());
            List<TuneFigure> figures = List.of(TuneFigure.values());
            json.put("figures", SpreadTable.json(set.repeated(), figures));
            json.put("addedLatencyMs", set.addedLatencyMs());
            TuneSet base = byId.get(bases.get(set.id()));
            if (base != null) {
                json.put("baseline", base.id());
                json.put("rule", RunsVerdict.rule());
                json.put("verdicts", SpreadTable.verdictsJson(set.repeated(), base.repeated(), figures));
            }
            list.add(json);
        }
        return list;
    }
}
