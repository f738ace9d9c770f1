package io.muster.engine.process;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * Runs one of the system's own tools for a resource kind ({@code useradd}, {@code systemctl}, {@code crontab}):
 * argv, never a shell, with muster's environment and a five-minute limit. A failure says which command it was and
 * what the tool answered, so the user reads the system's own words.
 */
public final class SystemTool {
    private static final ProcessRunner RUNNER = ProcessRunner.in(null, Duration.ofMinutes(5));

    private SystemTool() {}

    /** Runs {@code argv} to its end; its exit code and output, whatever the code. */
    public static ProcessRunner.Outcome run(List<String> argv) throws IOException, InterruptedException {
        return RUNNER.run(argv, quoted(argv));
    }

    /** Runs {@code argv} and returns its stdout; an exit code other than 0 is an {@link IOException} quoting it. */
    public static String output(List<String> argv) throws IOException, InterruptedException {
        return output(argv, quoted(argv));
    }

    /**
     * As {@link #output(List)}, naming the command {@code shown} in a failure: argv with a secret in it
     * ({@code usermod -p HASH}) is shown without the secret.
     */
    public static String output(List<String> argv, String shown) throws IOException, InterruptedException {
        ProcessRunner.Outcome outcome = RUNNER.run(argv, shown);
        if (outcome.exitCode() != 0) throw failure(shown, outcome);
        return outcome.stdout().text();
    }

    /** The error for a command that exited with other than 0: the command, the code and what it printed. */
    public static IOException failure(String shown, ProcessRunner.Outcome outcome) {
        String said = (outcome.stderr().text() + "\n" + outcome.stdout().text()).strip();
        return new IOException(shown + " exited with " + outcome.exitCode() + (said.isEmpty() ? "" : ": " + said));
    }

    /** How messages name a command: {@code 'useradd -u 1001 app'}. */
    public static String quoted(List<String> argv) {
        StringBuilder text = new StringBuilder("'");
        for (String word : argv) {
            if (text.length() > 1) text.append(' ');
            text.append(word.isEmpty() || word.matches(".*[\\s'\"\\\\$`].*") ? '"' + word.replace("\"", "\\\"") + '"' : word);
        }
        return text.append('\'').toString();
    }
}
