package io.muster.engine.resource;

import io.muster.engine.world.World;
import org.slf4j.Logger;

/** What a kind gets to open its session for a run ({@link ResourceKind#openSession}). */
public interface SessionContext {

    String hostname();

    World world();

    /** A logger for the kind's own lines ({@code muster.<kind>}). */
    Logger log();

    boolean debug();
}
