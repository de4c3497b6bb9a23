package dev.msgbench.cli.tune;

import java.util.List;
import java.util.Map;

import dev.msgbench.cli.jmh.JmhScore;

/**
 * One (JDK, flag set)'s JMH run: the scores of each benchmark, keyed as JMH's JSON keys them
 * (benchmark, mode, parameters), or why there are none.
 *
 * @param error null when JMH wrote its result
 */
record TuneJmhRun(String id, String jdk, String flagSet, List<String> flags, Map<String, JmhScore> scores, String error,
                  String log) {

    String status() {
        return error == null ? "complete" : "failed: " + error;
    }

    String name() {
        return jdk + " " + flagSet;
    }
}
