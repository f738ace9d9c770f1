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

    /**
     * Whether the run keeps going once converged ({@code muster run}, the agent), so that a session lives as
     * long as the process: what it holds open (descriptors that keep a file system busy) should not stay open
     * for it. False for a one-shot run, which closes its sessions when it exits.
     */
    boolean live();
}
