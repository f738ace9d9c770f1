package io.muster.engine.run;

import java.nio.file.Path;

/**
 * How a run behaves.
 *
 * @param noop change nothing, report what would change
 * @param sema how many resources may check or apply at once
 * @param prefix root of muster's state ({@code <prefix>/state/<kind>/<id>})
 * @param diffs attach unified diffs to content changes
 * @param healthCheckOnly run only the resources' health checks, changing nothing ({@code muster check})
 */
public record RunOptions(String hostname, boolean noop, int sema, Path prefix, boolean diffs, boolean debug, boolean healthCheckOnly) {

    public RunOptions {
        if (sema < 1) throw new IllegalArgumentException("sema must be at least 1, got " + sema);
        if (noop && healthCheckOnly) {
            throw new IllegalArgumentException("a health-check run cannot also be a noop run: it changes nothing already");
        }
    }

    public RunOptions(String hostname, boolean noop, int sema, Path prefix, boolean diffs, boolean debug) {
        this(hostname, noop, sema, prefix, diffs, debug, false);
    }
}
