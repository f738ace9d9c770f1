package io.muster.engine.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The host's processes as /proc lists them, found by their command line: also those that no longer
 * descend from anything the test started (a background job re-parented to init). Shared with the cli tests.
 */
public final class ProcessTable {
    private ProcessTable() {}

    /** The processes whose arguments, space-separated, are exactly {@code words}. */
    public static List<ProcessHandle> running(String... words) {
        String wanted = String.join(" ", words) + " ";
        try (Stream<Path> proc = Files.list(Path.of("/proc"))) {
            return proc.filter(p -> p.getFileName().toString().matches("[0-9]+"))
                    .filter(p -> cmdline(p).equals(wanted))
                    .map(p -> ProcessHandle.of(Long.parseLong(p.getFileName().toString())))
                    .flatMap(Optional::stream)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String cmdline(Path process) {
        try {
            return new String(Files.readAllBytes(process.resolve("cmdline"))).replace('\0', ' ');
        } catch (IOException e) {
            return ""; // it exited
        }
    }
}
