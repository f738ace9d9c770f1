package io.muster.coordinator;

import java.time.Duration;

/** Told how long each host's compile took, for the fleet's metrics ({@code muster_coordinator_compile_seconds}). */
@FunctionalInterface
public interface CompileTimes {
    CompileTimes NONE = (took, failed) -> { };

    /** @param failed whether the manifest did not compile for the host */
    void compiled(Duration took, boolean failed);
}
