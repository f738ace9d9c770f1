package io.muster.agent.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Prometheus' own linter ({@code promtool check metrics}, Debian's {@code prometheus}) on a scrape. */
public final class Promtool {
    private Promtool() {}

    /** What promtool finds wrong with {@code exposition} (names, types, help), one problem a line; empty when nothing. */
    public static String problems(String exposition, Path dir) throws IOException, InterruptedException {
        Path input = Files.writeString(dir.resolve("metrics.txt"), exposition);
        Process promtool;
        try {
            promtool = new ProcessBuilder("promtool", "check", "metrics").redirectInput(input.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("this test needs promtool: apt-get install prometheus; ./run-tests installs it", e);
        }
        String problems = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return promtool.waitFor() == 0 ? "" : problems.isEmpty() ? "promtool exited " + promtool.exitValue() : problems;
    }
}
