package io.muster.engine.resource;

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
