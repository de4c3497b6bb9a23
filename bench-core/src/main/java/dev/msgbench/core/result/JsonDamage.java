package dev.msgbench.core.result;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

/**
 * What is wrong with a JSON file the suite wrote, in words: where it was cut short, or which
 * field holds what instead of what, rather than Jackson's message with a stack trace.
 */
final class JsonDamage {

    private static final String CUT_SHORT = " (a run killed, a full disk or a power cut while writing it?)";

    private JsonDamage() {
    }

    /** A file with nothing in it. */
    static DamagedFile empty(Path file, String leftOut) {
        return new DamagedFile(file, "empty" + CUT_SHORT, leftOut);
    }

    static DamagedFile of(Path file, JsonProcessingException e, String leftOut) {
        if (e instanceof JsonEOFException) {
            return new DamagedFile(file, String.format(Locale.US, "truncated at byte %,d", size(file)) + CUT_SHORT, leftOut);
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            return new DamagedFile(file, "field " + path(mismatch) + ": expected " + expected(mismatch.getTargetType())
                    + ", got " + got(mismatch), leftOut);
        }
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            // a value its type refuses: our own creators say why (RunStatus names the statuses)
            Throwable why = mapping.getCause() != null ? mapping.getCause() : mapping;
            String text = why == mapping ? mapping.getOriginalMessage() : why.getMessage();
            return new DamagedFile(file, "field " + path(mapping) + ": " + firstLine(text), leftOut);
        }
        JsonLocation at = e.getLocation();
        String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        String what = e.getOriginalMessage() == null ? "" : ": " + firstLine(e.getOriginalMessage());
        return new DamagedFile(file, "not valid JSON" + where + what, leftOut);
    }

    private static String firstLine(String text) {
        return text == null ? "" : text.lines().findFirst().orElse("");
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return -1;
        }
    }

    /** The field as one writes it: {@code workload.durationSeconds}, {@code faults[0].event}. */
    private static String path(JsonMappingException e) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                b.append(b.length() == 0 ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.length() == 0 ? "(the whole file)" : b.toString();
    }

    private static String expected(Class<?> type) {
        if (type.isPrimitive() ? type != boolean.class : Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        return Map.class.isAssignableFrom(type) || !type.getName().startsWith("java.") ? "an object" : type.getSimpleName();
    }

    private static String got(MismatchedInputException e) {
        if (e instanceof InvalidFormatException invalid && invalid.getValue() instanceof String text) {
            return "a string (\"" + text + "\")";
        }
        JsonToken token = e.getProcessor() instanceof JsonParser parser ? parser.currentToken() : null;
        if (token == null) {
            return "something else";
        }
        return switch (token) {
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "true or false";
            case VALUE_NULL -> "null";
            case START_OBJECT, END_OBJECT, FIELD_NAME -> "an object";
            case START_ARRAY, END_ARRAY -> "a list";
            default -> "something else";
        };
    }
}
