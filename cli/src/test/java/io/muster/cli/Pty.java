package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** muster with a terminal (a pseudo-terminal, made by script(1)) as its standard output and error: what it printed there. */
record Pty(int exit, String out) {

    /** Runs {@code muster ARGS…} in {@code dir}, {@code environment} added (NO_COLOR removed unless given). */
    static Pty run(Path dir, Map<String, String> environment, Object... args) throws Exception {
        String command = MusterProcess.command(List.of(), args).stream().map(Pty::quoted).collect(Collectors.joining(" "));
        ProcessBuilder builder = new ProcessBuilder("script", "--quiet", "--return", "--command", command, "/dev/null")
                .directory(dir.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectErrorStream(true);
        builder.environment().remove("NO_COLOR");
        builder.environment().putAll(environment);
        Process script = builder.start();
        String out = new String(script.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(script.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Pty(script.exitValue(), out.replace("\r\n", "\n"));
    }

    private static String quoted(String arg) {
        return "'" + arg.replace("'", "'\\''") + "'";
    }
}
