package io.muster.engine.resource;

import io.muster.engine.world.World;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;

/** What the engine hands a resource while it runs. */
public interface Context {

    String hostname();

    /** A private directory for this resource ({@code <prefix>/state/<kind>/<id>}), created on first call. */
    Path stateDir();

    /** Where {@link #stateDir()} is, without creating it: noop may read state there but writes nothing. */
    Path statePath();

    /**
     * The directory of the manifest that declared the resource (a child manifest's own, under {@code apply}):
     * what relative paths in it mean.
     */
    Path manifestDirectory();

    /** How the run reaches the fleet: key-value strings, exports ({@code apply} and {@code run}: in memory). */
    World world();

    /**
     * The session the resource's kind keeps for this run ({@link ResourceKind#openSession}), opened on the
     * first call of any of its resources and shared by all of them.
     *
     * @throws IOException when the session cannot open, saying which kind's and why; the next call tries again
     * @throws IllegalStateException when the kind keeps no session, or not one of {@code type}: a bug in the kind
     */
    <S> S session(Class<S> type) throws IOException, InterruptedException;

    /**
     * Whether another resource reads this one's values ({@code lookup}, {@code recv}) in this run. A kind
     * may skip values that cost I/O when nobody reads them (a file's {@code sha256}).
     */
    boolean valuesRead();

    /** A logger whose lines carry the resource's id. */
    Logger log();

    /** True when a resource this one subscribes to changed in this run. */
    boolean refresh();

    /** Whether content changes should carry a unified diff (noop, plan, {@code --diff}); diffs cost time. */
    boolean diffs();

    boolean debug();
}
