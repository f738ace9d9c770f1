package io.muster.engine.health;

import io.muster.engine.health.goss.Gossfile;
import io.muster.engine.process.ProcessRunner;
import io.muster.engine.util.Json;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a resource's health checks, each until it reports OK or runs out of tries, or the run is stopped:
 * then no further try begins and the check reports why.
 */
public final class HealthChecks {
    private HealthChecks() {}

    public static List<HealthResult> run(List<HealthCheck> checks, Path directory, StopSignal stop) throws InterruptedException {
        List<HealthResult> results = new ArrayList<>(checks.size());
        for (HealthCheck check : checks) results.add(run(check, directory, stop));
        return results;
    }

    private static HealthResult run(HealthCheck check, Path directory, StopSignal stop) throws InterruptedException {
        HealthResult result = null;
        for (int attempt = 1; attempt <= check.tries(); attempt++) {
            if (attempt > 1) stop.sleep(check.trySleep());
            if (stop.cause() != null) return stopped(check, result, stop.cause() + " before try " + attempt);
            result = once(check, directory, attempt);
            if (result.ok()) break;
        }
        return result;
    }

    /** A check the stop cut short: its last try's status (UNKNOWN if none was made), and why it was not tried again. */
    private static HealthResult stopped(HealthCheck check, HealthResult last, String why) {
        if (last == null) return new HealthResult(check.name(), HealthStatus.UNKNOWN, why, 0);
        String output = last.output().isEmpty() ? why : last.output() + "; " + why;
        return new HealthResult(check.name(), last.status(), output, last.tries());
    }

    /** A check that cannot start or does not finish in time is CRITICAL, as Nagios treats a timed-out check. */
    private static HealthResult once(HealthCheck check, Path directory, int attempt) throws InterruptedException {
        if (!check.goss().isEmpty()) return goss(check, attempt);
        try {
            ProcessRunner.Outcome out = ProcessRunner.in(directory, check.timeout())
                    .run(List.of("/bin/sh", "-c", check.command()), "'" + check.command() + "'");
            String text = out.stdout().text().isBlank() ? out.stderr().text() : out.stdout().text();
            return new HealthResult(check.name(), HealthStatus.of(out.exitCode()), firstLine(text), attempt);
        } catch (IOException e) {
            return new HealthResult(check.name(), HealthStatus.CRITICAL, e.getMessage(), attempt);
        }
    }

    /** goss rules: OK when every one holds, else CRITICAL naming what does not (as CCM's goss format reports). */
    private static HealthResult goss(HealthCheck check, int attempt) throws InterruptedException {
        Gossfile rules;
        try {
            rules = Gossfile.of(Json.parse(check.goss()));
        } catch (IllegalArgumentException e) { // read when the graph was: only a graph from elsewhere gets here
            return new HealthResult(check.name(), HealthStatus.UNKNOWN, "goss: " + e.getMessage(), attempt);
        }
        List<String> failures = rules.validate(check.timeout());
        if (failures.isEmpty()) return new HealthResult(check.name(), HealthStatus.OK, "goss: " + rules.size() + " passed", attempt);
        return new HealthResult(check.name(), HealthStatus.CRITICAL, "goss: " + failures.size() + " of " + rules.size() + " failed: "
                + String.join("; ", failures), attempt);
    }

    private static String firstLine(String text) {
        String stripped = text.strip();
        int nl = stripped.indexOf('\n');
        return nl < 0 ? stripped : stripped.substring(0, nl).strip();
    }
}
