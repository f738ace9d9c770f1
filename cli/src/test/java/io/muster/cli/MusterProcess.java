package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code muster} as a user runs it: a JVM of its own (so signals are real), its stdout and stderr in files
 * that can be read while it runs.
 */
final class MusterProcess implements AutoCloseable {
    private final Process process;
    private final Path out;
    private final Path err;
    private final List<ProcessHandle> children = new ArrayList<>();

    private MusterProcess(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /** Starts {@code muster ARGS…} in {@code dir}, writing {@code NAME.out} and {@code NAME.err} there. */
    static MusterProcess start(Path dir, String name, Object... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
                "-cp", System.getProperty("java.class.path"),
                "io.muster.cli.Main"));
        for (Object arg : args) command.add(String.valueOf(arg));
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        Process process = new ProcessBuilder(command).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new MusterProcess(process, out, err);
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

    /** SIGTERM, as {@code kill PID} sends it. */
    void terminate() {
        process.destroy();
    }

    /** Waits for muster to exit by itself and returns its exit code. */
    int awaitExit(Duration patience) throws InterruptedException {
        boolean exited = process.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(exited).as("muster exited within %s; stdout:%n%s%nstderr:%n%s", patience, out(), err()).isTrue();
        return process.exitValue();
    }

    /** Kills muster, and any command it left behind, if they still run. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) descendants();
        process.destroyForcibly().waitFor();
        children.forEach(ProcessHandle::destroyForcibly);
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
