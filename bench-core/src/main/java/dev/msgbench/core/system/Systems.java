package dev.msgbench.core.system;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

/** The systems on the class path: every {@link SystemProvider} that {@link ServiceLoader} finds. */
public final class Systems {

    private Systems() {
    }

    /**
     * Fresh instances of every system, in the providers' order; each holds its flags, so each
     * command line needs its own. Providers are looked up through the thread's context class
     * loader, as {@link ServiceLoader#load(Class)} does.
     *
     * @throws IllegalStateException when two providers offer the same name
     */
    public static List<SystemTarget> create() {
        List<SystemProvider> providers = new ArrayList<>();
        ServiceLoader.load(SystemProvider.class).forEach(providers::add);
        providers.sort(Comparator.comparingInt(SystemProvider::order).thenComparing(p -> p.getClass().getName()));
        List<SystemTarget> systems = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (SystemProvider provider : providers) {
            for (SystemTarget system : provider.create()) {
                if (!names.add(system.name())) {
                    throw new IllegalStateException("two system providers offer the system " + system.name()
                            + "; remove one of them from the class path (the second: " + provider.getClass().getName() + ")");
                }
                systems.add(system);
            }
        }
        return systems;
    }

    public static List<String> names() {
        List<String> names = new ArrayList<>();
        for (SystemTarget target : create()) {
            names.add(target.name());
        }
        return names;
    }

    /** The systems with a broker the suite can start (all but those that run inside this JVM). */
    public static List<String> brokerNames() {
        List<String> names = new ArrayList<>();
        for (SystemTarget target : create()) {
            if (target.needsBroker()) {
                names.add(target.name());
            }
        }
        return names;
    }
}
