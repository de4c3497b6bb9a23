package dev.msgbench.cli.systems;

import java.util.List;

/** The systems the command line knows. */
public final class Targets {

    private Targets() {
    }

    public static List<String> names() {
        return List.of("kafka");
    }
}
