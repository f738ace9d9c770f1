package io.muster.engine.run;

import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.report.ResourceReport;

/**
 * What the {@link Engine} tells the run that drives it, from the workers' threads: a live run counts and
 * reports every check and judges convergence ({@link LiveRun}); a one-shot run reports each resource once,
 * when it has settled, and ends when all have ({@link OneShotRun}).
 */
interface RunEvents {
    /** A new graph runs (or replaced the one before). */
    void graph(Graph graph);

    /** {@code id} has work to do or is done for now; {@link Engine#SWAPPING} while a graph is swapped in. */
    void busy(String id, boolean busy);

    /** A new graph is being swapped in: the run is not converged from now on. */
    void swapping();

    /**
     * One attempt's outcome; {@code retrying} when another attempt follows; {@code firstSuccess} when it is the
     * resource's first success since it started (a new resource's first apply, not the repair of a drift).
     */
    void checked(Vertex v, ResourceReport report, boolean retrying, boolean firstSuccess);

    /** A report that is no check (skipped, failed outside its run, reversed); {@code eventful} when it failed. */
    void report(ResourceReport report, boolean eventful);

    /** A failed attempt, of a check or of a watch; {@code forGood} when no retry follows. */
    void failure(Vertex v, boolean forGood);

    /** How many resources of {@code v}'s kind fail now, hard (for good) or soft (retrying), moved by {@code delta}. */
    void failing(Vertex v, boolean hard, int delta);

    /** {@code w} has settled: converged, or failed or skipped for good, until something pokes it again. */
    void settled(Worker w);
}
