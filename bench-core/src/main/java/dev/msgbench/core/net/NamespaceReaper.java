package dev.msgbench.core.net;

import java.util.ArrayList;
import java.util.List;

/**
 * Deletes the namespaces of isolated runs whose JVM died without removing them (SIGKILL, a
 * power cut): the counterpart of the broker StaleReaper, run at the start of every isolated run.
 * Deleting a switch namespace removes its bridge and the links' ends with it.
 */
public final class NamespaceReaper {

    private NamespaceReaper() {
    }

    /** @return the namespaces it deleted */
    public static List<String> reap() {
        List<String> deleted = new ArrayList<>();
        for (String namespace : list()) {
            if (NamespaceNames.isOrphan(namespace)) {
                NetCommand.run("ip", "netns", "delete", namespace);
                deleted.add(namespace);
            }
        }
        return deleted;
    }

    /** The names {@code ip netns list} shows, without their "(id: N)". */
    static List<String> list() {
        List<String> names = new ArrayList<>();
        for (String line : NetCommand.run("ip", "netns", "list").split("\n")) {
            String name = line.strip().split("\\s+")[0];
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }
}
