package dev.msgbench.core.result;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.msgbench.core.net.NetworkIdentity;

/** The measuring JVM and host, as every result records them. */
public final class Environment {

    /** JVM flags that may carry secrets (-Dssl.password=...) are recorded without their value. */
    private static final Pattern SECRET = Pattern.compile("(?i).*(password|secret|token|credential|apikey|api\\.key).*");

    private Environment() {
    }

    public static Map<String, Object> describe() {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        env.put("javaVersion", System.getProperty("java.version"));
        env.put("javaVendor", System.getProperty("java.vendor"));
        env.put("javaHome", System.getProperty("java.home"));
        env.put("jvmFlags", redacted(ManagementFactory.getRuntimeMXBean().getInputArguments()));
        env.put("gc", garbageCollectors());
        env.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
        env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        env.put("cores", Runtime.getRuntime().availableProcessors());
        env.put("host", NetworkIdentity.describe());
        return env;
    }

    static List<String> redacted(List<String> flags) {
        List<String> out = new ArrayList<>(flags.size());
        for (String flag : flags) {
            int eq = flag.indexOf('=');
            out.add(eq > 0 && SECRET.matcher(flag.substring(0, eq)).matches() ? flag.substring(0, eq + 1) + "***" : flag);
        }
        return out;
    }

    private static List<String> garbageCollectors() {
        List<String> names = new ArrayList<>();
        ManagementFactory.getGarbageCollectorMXBeans().forEach(gc -> names.add(gc.getName()));
        return names;
    }
}
