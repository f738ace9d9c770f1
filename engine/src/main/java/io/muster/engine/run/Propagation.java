package io.muster.engine.run;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.Vertex;

/** What a finished resource passes on along its outgoing edges, in a one-shot and a live run alike. */
final class Propagation {
    private Propagation() {}

    /** Why the dependents of a resource that failed may not run (they are skipped, and block their own). */
    static String blockedBy(String failedId) {
        return "dependency " + failedId + " failed";
    }

    /**
     * Whether a change of {@code from} refreshes {@code to} along {@code e} ({@code notify}, {@code subscribe}):
     * only a real change does; one that only would have happened (a noop {@code to} is not in) does not.
     */
    static boolean refreshes(Edge e, Vertex from, Vertex to, boolean changed) {
        return changed && e.reason().refreshes() && from.changeIsRealTo(to);
    }
}
