package io.muster.engine.run;

import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.TempFile;
import io.muster.engine.util.fs.TrustedPath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * {@code --status-file}: a line {@code converged} or {@code not converged} appended at each transition,
 * so the last line is the state now and the file is the run's history. A new empty file (0644) takes the
 * path's place when the run starts, written the way every file is (see {@link TempFile}); the run then
 * appends through its descriptor (open until the process ends), so a link put at the path later is never
 * followed.
 */
public final class StatusFile {
    private final Path path;
    private final TempFile file;

    public StatusFile(Path path) throws IOException {
        this.path = path.toAbsolutePath();
        try (Directory dir = TrustedPath.open(this.path.getParent(), -1)) {
            file = dir.createTemp(this.path.getFileName().toString());
            try {
                file.setAttributes(0644, -1, -1);
                file.commit();
            } catch (IOException e) {
                file.close();
                throw e;
            }
        }
    }

    public synchronized void write(boolean converged) {
        try {
            file.append((converged ? "converged\n" : "not converged\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write status file " + path, e);
        }
    }
}
