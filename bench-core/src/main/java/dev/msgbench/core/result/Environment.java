package dev.msgbench.core.result;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /*
     * Figures from two machines are not comparable, and a machine of the same size can be AMD one day
     * and Intel the next (this project's own 2-vCPU VMs have been): the processor is named in every
     * result so that `compare` can say when BASE and NEW ran on different ones. The clock source is
     * how System.nanoTime is read: on a VM without a usable TSC (tsc and kvm-clock are fine, hpet and
     * acpi_pm are not) every reading is a system call of about a microsecond, which both the schedule
     * and every latency pay.
     */
    private static final Path CPU_INFO = Path.of("/proc/cpuinfo");
    private static final Path CLOCK_SOURCE = Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource");

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
        env.put("cpuModel", cpuModel(readOrEmpty(CPU_INFO)));
        env.put("clockSource", emptyToNull(readOrEmpty(CLOCK_SOURCE).strip()));
        env.put("host", NetworkIdentity.describe());
        return env;
    }

    /**
     * The processor's name from the text of /proc/cpuinfo: its first "model name" (x86), else its
     * first "Model" or "Hardware" (ARM); null when none is there (another OS, or a container that
     * hides it).
     */
    static String cpuModel(String cpuInfo) {
        String fallback = null;
        for (String line : cpuInfo.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            if (value.isEmpty()) {
                continue;
            }
            if (key.equals("model name")) {
                return value;
            }
            if (fallback == null && (key.equals("Model") || key.equals("Hardware"))) {
                fallback = value;
            }
        }
        return fallback;
    }

    private static String readOrEmpty(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | SecurityException e) {
            // not Linux, or hidden: the result says null rather than failing the run it describes
            return "";
        }
    }

    private static String emptyToNull(String s) {
        return s.isEmpty() ? null : s;
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
