package io.muster.engine.health;

/** What a health check reported on its last try; {@code output} is the first line it printed. */
public record HealthResult(String name, HealthStatus status, String output, int tries) {

    public boolean ok() {
        return status == HealthStatus.OK;
    }

    /** {@code health check 'http' critical after 3 tries: connection refused}. */
    public String describe() {
        return describe(status.label());
    }

    /** As {@link #describe()}, with {@code statusWord} (the status, coloured for a terminal) in place of the status. */
    public String describe(String statusWord) {
        return "health check '" + name + "' " + statusWord + (tries > 1 ? " after " + tries + " tries" : "")
                + (output.isEmpty() ? "" : ": " + output);
    }
}
