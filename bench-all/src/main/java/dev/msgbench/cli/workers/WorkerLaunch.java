package dev.msgbench.cli.workers;

import java.util.List;

/**
 * The command line of one worker, the same wherever it runs: in a pod of the Kubernetes Indexed
 * Job (deploy/kubernetes), from scripts/workers-local, and in the test that merges four local
 * workers. Everything but the results folder comes from the workload's argument file, the same for
 * every worker; each finds its index in JOB_COMPLETION_INDEX and writes RESULTS/worker-I. A prefix
 * such as {@code ip netns exec NS} can go in front of it unchanged.
 */
public final class WorkerLaunch {

    /** Where the image of deploy/kubernetes/Dockerfile keeps the runner. */
    public static final String IMAGE_JAR = "/opt/msgbench/bench-all.jar";
    /** Where the Job mounts the ConfigMap's argument file. */
    public static final String IMAGE_ARGS_FILE = "/etc/msgbench/workload.args";
    /** Where the Job mounts the results volume. */
    public static final String IMAGE_RESULTS = "/results";

    private WorkerLaunch() {
    }

    /** How the image starts the runner: the container's command. */
    public static List<String> imageCommand() {
        return List.of("java", "-jar", IMAGE_JAR);
    }

    /**
     * The runner's arguments: the workload's argument file (picocli reads @FILE, one argument per
     * line: the command, --workers N, --start-at and the rest) and the folder all workers write below.
     */
    public static List<String> args(String argsFile, String results) {
        return List.of("@" + argsFile, "--output", results);
    }
}
