package io.muster.engine.resource.exec;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A command line run through {@code /bin/sh -c} with exec's output capture and timeout, for health checks. */
public final class ShellCommand {
    private ShellCommand() {}

    public record Output(int exitCode, String stdout, String stderr) {}

    /** @throws IOException when the command cannot start or runs out of time (it is killed) */
    public static Output run(String command, Path cwd, Duration timeout) throws IOException, InterruptedException {
        Execution.Outcome outcome = new Execution(cwd, Map.of(), List.of(), timeout, null, null).run(Command.of(command, true, false));
        return new Output(outcome.exitCode(), outcome.stdout().text(), outcome.stderr().text());
    }
}
