package io.muster.engine.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code --status-file}: a line {@code converged} or {@code not converged} appended at each transition,
 * so the last line is the state now and the file is the run's history. Emptied when the run starts.
 */
public final class StatusFile {
    private final Path path;

    public StatusFile(Path path) throws IOException {
        this.path = path;
        Files.write(path, new byte[0]);
    }

    public synchronized void write(boolean converged) {
        try {
            Files.writeString(path, converged ? "converged\n" : "not converged\n", StandardCharsets.UTF_8,
                    StandardOpenOption.APPEND, StandardOpenOption.SYNC);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write status file " + path, e);
        }
    }
}
