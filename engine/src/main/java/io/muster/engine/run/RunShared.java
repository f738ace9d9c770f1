package io.muster.engine.run;

import io.muster.engine.world.World;

/**
 * What every resource of one run shares, reached through its {@link RunContext}: the World the run was
 * given, the kinds' sessions, which the run closes when it ends, and what the run exports.
 */
record RunShared(World world, KindSessions sessions, Publications exports) {

    /** @param live whether the run keeps going once converged (see {@link io.muster.engine.resource.SessionContext#live}) */
    static RunShared open(RunOptions options, World world, boolean live) {
        return new RunShared(world, new KindSessions(options, world, live), new Publications(world));
    }
}
