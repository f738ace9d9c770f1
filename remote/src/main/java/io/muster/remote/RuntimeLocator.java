package io.muster.remote;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds what {@code muster remote} puts on a host: muster's jar and the Java runtime made for it with jlink (built by
 * the deploy module, or installed by the .deb), so the host needs no Java of its own.
 */
public final class RuntimeLocator {
    /** The runtime's listing of its files and their sha256, written when it is built: it marks a runtime as muster's. */
    public static final String LISTING = "muster-runtime.sha256";

    private static final String HOW_TO_BUILD = "build one with ./mvnw -pl deploy -am package and pass --runtime deploy/target/runtime, "
            + "or install the muster .deb";

    private RuntimeLocator() {}

    /** Why there is nothing to upload: one line saying what to do. */
    public static final class NotFound extends Exception {
        NotFound(String message) {
            super(message);
        }
    }

    /**
     * The jar this JVM runs: the one file on its class path ({@code java -jar muster.jar}, as the launcher runs it). A
     * jar that names others in its manifest's Class-Path counts as one: the host runs it the same way.
     */
    public static Path jar(String classPath) throws NotFound {
        if (classPath == null || classPath.contains(File.pathSeparator) || !classPath.endsWith(".jar")) {
            throw new NotFound("muster remote uploads the jar muster runs from, but this muster runs from classes ("
                    + "build the jar: ./mvnw -pl cli -am package -DskipTests, then run ./muster)");
        }
        return Path.of(classPath).toAbsolutePath();
    }

    /**
     * The runtime to upload: {@code given} (--runtime), else {@code fromEnvironment} ($MUSTER_RUNTIME), else
     * {@code runtime/} beside the jar, else the running Java when it is such a runtime (an installed muster runs on it).
     *
     * @throws NotFound naming what was given and why it is not a runtime, or saying how to build one
     */
    public static Path runtime(Path given, String fromEnvironment, Path jar, Path javaHome) throws NotFound {
        if (given != null) return checked(given, "--runtime");
        if (fromEnvironment != null && !fromEnvironment.isBlank()) return checked(Path.of(fromEnvironment), "$MUSTER_RUNTIME");
        for (Path candidate : new Path[] {jar.resolveSibling("runtime"), javaHome}) {
            if (isRuntime(candidate)) return candidate.toAbsolutePath();
        }
        throw new NotFound("no Java runtime to upload to the hosts (none given with --runtime or $MUSTER_RUNTIME, none beside "
                + jar + "): " + HOW_TO_BUILD);
    }

    private static Path checked(Path dir, String from) throws NotFound {
        if (!isRuntime(dir)) {
            throw new NotFound(from + " " + dir + ": not a muster runtime (expected bin/java and " + LISTING + " in it); " + HOW_TO_BUILD);
        }
        return dir.toAbsolutePath();
    }

    private static boolean isRuntime(Path dir) {
        return Files.isExecutable(dir.resolve("bin/java")) && Files.isRegularFile(dir.resolve(LISTING));
    }
}
