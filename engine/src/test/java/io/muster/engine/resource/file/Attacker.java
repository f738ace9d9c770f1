package io.muster.engine.resource.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * attacker.c, compiled with gcc and run as nobody (uid 65534) through setpriv: one process racing muster
 * in a directory that user owns, for a few seconds. See attacker.c for the modes.
 */
final class Attacker implements AutoCloseable {
    static final int NOBODY = 65534;

    private final Process process;
    private final BufferedReader out;

    private Attacker(Process process) throws IOException {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String first = out.readLine();
        if (!"ready".equals(first)) {
            throw new AssertionError("attacker did not start: " + new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** Compiles attacker.c into {@code bin} (which nobody must be able to reach). */
    static Path compile(Path bin) throws Exception {
        Path source = bin.resolve("attacker.c");
        try (InputStream in = Attacker.class.getResourceAsStream("attacker.c")) {
            Files.write(source, in.readAllBytes());
        }
        Path binary = bin.resolve("attacker");
        Process gcc = new ProcessBuilder("gcc", "-O2", "-o", binary.toString(), source.toString()).redirectErrorStream(true).start();
        String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(gcc.waitFor(60, TimeUnit.SECONDS) && gcc.exitValue() == 0).as("gcc: %s", output).isTrue();
        return binary;
    }

    /**
     * Starts the attacker with {@code args} (its mode first, its seconds last); it goes on past those seconds until it
     * counted {@code atLeast} swaps (temp files seen, in watch mode), for a while at most, so that a test's own
     * "enough happened" check holds on a loaded machine too.
     */
    static Attacker start(Path binary, long atLeast, Object... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups",
                binary.toString()));
        for (Object arg : args) command.add(String.valueOf(arg));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("ATTACKER_AT_LEAST", String.valueOf(atLeast));
        return new Attacker(builder.start());
    }

    boolean running() {
        return process.isAlive();
    }

    /** Waits for the attacker to end (its own deadline) and returns the counts it printed. */
    Map<String, Long> counts() throws Exception {
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("attacker ended").isTrue();
        Map<String, Long> counts = new HashMap<>();
        for (String line; (line = out.readLine()) != null; ) {
            for (String pair : line.trim().split(" ")) {
                String[] kv = pair.split("=");
                counts.put(kv[0], Long.parseLong(kv[1]));
            }
        }
        return counts;
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
