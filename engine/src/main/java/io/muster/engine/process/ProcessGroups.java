package io.muster.engine.process;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Commands run in a process group (and session) of their own, started through {@code setsid}, so that a
 * timeout or a stop kills the command and everything it started that stayed in its group: a shell's
 * background jobs, a daemon that forked twice. A descendant that calls {@code setsid} itself leaves the
 * group; it is still killed while it is a descendant, but not once re-parented. (A cgroup would catch it
 * too, but needs a writable cgroup v2 hierarchy and delegation, which containers and many hosts lack,
 * and a helper to move the child in before it can fork.)
 *
 * <p>Java spawns the child without making it a group leader, so {@code setsid} needs no fork and the
 * group's id is the child's pid.
 */
public final class ProcessGroups {
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static { // a JVM that exits while commands run (System.exit, a signal with no handler) leaves none behind
        Runtime.getRuntime().addShutdownHook(new Thread(ProcessGroups::killAll, "kill-commands"));
    }

    private ProcessGroups() {}

    /** The argv that runs {@code command} as the leader of a new process group. */
    static List<String> prefix() {
        return List.of("setsid");
    }

    /** Starts {@code builder}, whose command {@link #prefix} leads, and keeps it until it exits, for {@link #killAll}. */
    static Process start(ProcessBuilder builder) throws IOException {
        Process process = builder.start();
        RUNNING.add(process);
        process.onExit().thenRun(() -> RUNNING.remove(process));
        return process;
    }

    /**
     * Kills the command's whole group, and its descendants that left the group, then waits for the command
     * itself. The group is signalled even when its leader has exited: members may outlive it. For a
     * process {@link ProcessRunner#start} started.
     */
    public static void kill(Process process) throws InterruptedException {
        List<ProcessHandle> descendants = process.descendants().toList();
        signalGroup(process.pid());
        descendants.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
    }

    /**
     * For a forced stop: kills every command still running, without waiting for them. {@code Runtime.halt}
     * runs no shutdown hook, so whoever halts calls this first.
     */
    public static void killAll() {
        for (Process process : RUNNING) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            signalGroup(process.pid());
            process.destroyForcibly();
        }
    }

    /** {@code kill -KILL -- -PGID}: Java has no call for signalling a group; kill(1) does it in one system call. */
    private static void signalGroup(long pgid) {
        try {
            new ProcessBuilder("kill", "-KILL", "--", "-" + pgid)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .onExit().join();
        } catch (IOException e) {
            // kill(1) missing: the leader and its descendants are still killed one by one by the caller
        }
    }
}
