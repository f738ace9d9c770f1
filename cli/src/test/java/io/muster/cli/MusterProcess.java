package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * {@code muster} as a user runs it: a JVM of its own (so signals are real), its stdout and stderr in files
 * that can be read while it runs. Its environment carries a marker of its own, which every command it
 * starts inherits: {@link #leftovers} finds them by it, even once re-parented.
 */
final class MusterProcess implements AutoCloseable {
    private static final String MARKER = "MUSTER_TEST_MARKER";

    private final Process process;
    private final Path out;
    private final Path err;
    private final String marker;
    private final List<ProcessHandle> children = new ArrayList<>();

    private MusterProcess(Process process, Path out, Path err, String marker) {
        this.process = process;
        this.out = out;
        this.err = err;
        this.marker = marker;
    }

    /** Starts {@code muster ARGS…} in {@code dir}, writing {@code NAME.out} and {@code NAME.err} there. */
    static MusterProcess start(Path dir, String name, Object... args) throws IOException {
        return start(dir, name, Map.of(), args);
    }

    /** As {@link #start(Path, String, Object...)}, with {@code environment} added to the test's own. */
    static MusterProcess start(Path dir, String name, Map<String, String> environment, Object... args) throws IOException {
        return start(dir, name, List.of(), environment, args);
    }

    /** As {@link #start(Path, String, Map, Object...)}, with {@code jvmOptions} for muster's JVM ({@code -Duser.language=tr}). */
    static MusterProcess start(Path dir, String name, List<String> jvmOptions, Map<String, String> environment, Object... args)
            throws IOException {
        return start(dir, name, command(jvmOptions, System.getProperty("java.class.path"), args), environment);
    }

    /** As {@link #start(Path, String, Object...)}, muster's classes from {@code classPath} (a jar of muster's: TestPayload). */
    static MusterProcess startFrom(String classPath, Path dir, String name, Map<String, String> environment, Object... args) throws IOException {
        return start(dir, name, command(List.of(), classPath, args), environment);
    }

    private static MusterProcess start(Path dir, String name, List<String> command, Map<String, String> environment) throws IOException {
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        String marker = MARKER + "=" + UUID.randomUUID();
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(environment);
        builder.environment().put(MARKER, marker.substring(MARKER.length() + 1));
        return new MusterProcess(builder.start(), out, err, marker);
    }

    /** The command line that runs {@code muster ARGS…} in a JVM of its own, with {@code jvmOptions}. */
    static List<String> command(List<String> jvmOptions, Object... args) {
        return command(jvmOptions, System.getProperty("java.class.path"), args);
    }

    private static List<String> command(List<String> jvmOptions, String classPath, Object... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m"));
        if (Runtime.version().feature() >= 24) command.add("--sun-misc-unsafe-memory-access=allow"); // as the launcher: protobuf
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, "io.muster.cli.Main"));
        for (Object arg : args) command.add(String.valueOf(arg));
        return command;
    }

    String out() {
        return read(out);
    }

    String err() {
        return read(err);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The processes muster started that are running now (an exec's command). */
    List<ProcessHandle> descendants() {
        List<ProcessHandle> now = process.descendants().toList();
        children.addAll(now);
        return now;
    }

    long pid() {
        return process.pid();
    }

    /** SIGTERM, as {@code kill PID} sends it. */
    void terminate() {
        process.destroy();
    }

    /** SIGINT, as Ctrl-C sends it (to muster alone here, not to a process group). */
    void interrupt() throws IOException, InterruptedException {
        assertThat(new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor()).isZero();
    }

    /** SIGKILL: muster cannot clean up; what it started keeps running (and {@link #close} kills it). */
    void kill() throws InterruptedException {
        descendants();
        process.destroyForcibly().waitFor();
    }

    /**
     * The processes other than muster that carry its marker: what it started and left running, re-parented
     * or not.
     */
    List<Long> leftovers() throws IOException {
        List<Long> found = new ArrayList<>();
        byte[] wanted = marker.getBytes(StandardCharsets.UTF_8);
        try (DirectoryStream<Path> proc = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path p : proc) {
                long pid = Long.parseLong(p.getFileName().toString());
                if (pid != process.pid() && contains(environment(p), wanted)) found.add(pid);
            }
        }
        return found;
    }

    private static byte[] environment(Path proc) {
        try {
            return Files.readAllBytes(proc.resolve("environ"));
        } catch (IOException e) { // it exited meanwhile
            return new byte[0];
        }
    }

    private static boolean contains(byte[] environment, byte[] entry) {
        int start = 0;
        for (int i = 0; i <= environment.length; i++) {
            if (i == environment.length || environment[i] == 0) {
                if (i - start == entry.length && Arrays.equals(environment, start, i, entry, 0, entry.length)) return true;
                start = i + 1;
            }
        }
        return false;
    }

    /** Waits for muster to exit by itself and returns its exit code. */
    int awaitExit(Duration patience) throws InterruptedException {
        boolean exited = process.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(exited).as("muster exited within %s; stdout:%n%s%nstderr:%n%s", patience, out(), err()).isTrue();
        return process.exitValue();
    }

    /** Kills muster, and any command it left behind, if they still run. */
    @Override
    public void close() throws InterruptedException, IOException {
        if (process.isAlive()) descendants();
        process.destroyForcibly().waitFor();
        children.forEach(ProcessHandle::destroyForcibly);
        for (long pid : leftovers()) ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
