package io.muster.engine.resource;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A resource whose apply a noop run ({@code plan}) can foresee failing, cheaply and before anything was applied: a
 * file whose directory does not exist, a command whose program is not on the PATH or whose user does not exist.
 * Only what nothing run before it could make counts: {@code plan} reports a failure to come, never a guess.
 */
public interface Foreseeable extends Resource {

    /**
     * Why the change a noop check of this resource just found would fail when applied, or null.
     *
     * @param upstream what the resources this one comes after may make
     */
    String failureToCome(Upstream upstream) throws Exception;

    /** What the resources a resource comes after (directly or not) may make before it runs. */
    interface Upstream {
        /** Whether one of them manages {@code path} (a file or document there) or runs commands, which may make it. */
        boolean mayMake(Path path);

        /** Whether one of them runs commands (an exec, an apply), which may make anything: a user, a program. */
        boolean runsCommands();
    }

    /** For a resource that creates {@code path}: why it cannot, when its directory is missing and nothing makes it; else null. */
    static String missingDirectory(Path path, Upstream upstream) {
        Path parent = path.getParent();
        if (parent == null || Files.exists(path) || Files.isDirectory(parent) || upstream.mayMake(parent)) return null;
        return "its directory " + parent + " does not exist, and nothing before it in the manifest makes it";
    }
}
