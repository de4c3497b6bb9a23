package dev.msgbench.cli.report;

import java.util.Map;

import com.fasterxml.jackson.core.type.TypeReference;

import dev.msgbench.core.result.ResultFiles;

/** Parts of result.json as the name/value pairs the page lists. */
public final class ResultJson {

    private ResultJson() {
    }

    static Map<String, Object> asMap(Object value) {
        return ResultFiles.json().convertValue(value, new TypeReference<Map<String, Object>>() { });
    }
}
