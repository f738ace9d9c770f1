package io.muster.engine.health;

import java.time.Duration;

/**
 * One entry of a resource's {@code health_checks}: a command run through {@code /bin/sh} in the
 * manifest's directory, or goss rules checked against the system ({@code goss}, their JSON; then the command is
 * empty), tried up to {@code tries} times, {@code trySleep} apart, until it reports OK.
 */
public record HealthCheck(String name, String command, String goss, int tries, Duration trySleep, Duration timeout) {
    /** A command's check. */
    public HealthCheck(String name, String command, int tries, Duration trySleep, Duration timeout) {
        this(name, command, "", tries, trySleep, timeout);
    }
}
