package io.muster.engine.health;

/** What a health check reported on its last try; {@code output} is the first line it printed. */
public record HealthResult(String name, HealthStatus status, String output, int tries) {

    public boolean ok() {
        return status == HealthStatus.OK;
    }

    /** {@code health check 'http' critical after 3 tries: connection refused}. */
    public String describe() {
        return "health check '" + name + "' " + status.label() + (tries > 1 ? " after " + tries + " tries" : "")
                + (output.isEmpty() ? "" : ": " + output);
    }
}
