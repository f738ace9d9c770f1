package io.muster.engine.health;

import java.util.Locale;

/** A health check's outcome, read from its exit code as Nagios plugins report it. */
public enum HealthStatus {
    OK, WARNING, CRITICAL, UNKNOWN;

    /** 0 OK, 1 WARNING, 2 CRITICAL; anything else (3, a missing command's 127, a signal) is UNKNOWN. */
    public static HealthStatus of(int exitCode) {
        return switch (exitCode) {
            case 0 -> OK;
            case 1 -> WARNING;
            case 2 -> CRITICAL;
            default -> UNKNOWN;
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
