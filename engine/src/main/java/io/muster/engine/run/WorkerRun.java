package io.muster.engine.run;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.Vertex;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.template.Scope;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;

/**
 * The live run as one {@link Worker} (and its {@link WorkerWatch}) sees it: its neighbours in the graph
 * running now, a way to run its vertex once, and where to say what happened. A worker never sees the swap,
 * the other workers' bookkeeping or the run's services; the {@link Engine} implements this over the
 * {@link Engine.Generation} published last.
 */
interface WorkerRun {
    /** A neighbour: the edge to or from it and its worker. */
    record Link(Edge edge, Worker worker) {}

    Clock clock();

    ThreadFactory threads();

    /** How attempts are made (rate limit, semaphores, retries). */
    Attempts attempts();

    /** The workers {@code id} depends on in the running graph. */
    List<Link> dependencies(String id);

    /** The workers that depend on {@code id} in the running graph. */
    List<Link> dependents(String id);

    /** One attempt: its check and apply, or for an aggregate its outcome from its members' last reports. */
    ResourceReport attempt(Vertex v, boolean refresh, boolean membersChanged);

    /** Whether {@code v}'s checks wait for its members, not only for what it requires. */
    boolean aggregate(Vertex v);

    /** What {@code id} produced last. */
    Map<String, Object> outputs(String id);

    /** The scope {@code v}'s late values render in: the values produced so far. */
    Scope scope(Vertex v);

    /** Where to say what happened. */
    RunEvents events();

    /** Whether resources are watched (a live run) or only run (a one-shot run). */
    boolean watches();

    /** Whether the run is being stopped: no attempt begins any more. */
    boolean halted();

    /** Whether a failed resource blocks its dependents; not in a health-check run, which changes nothing. */
    boolean failuresBlock();

    /** A resource converged for the first time, failed, or began to retry: a swap waiting on {@code meta.realize} looks again. */
    void realizeChanged();

    AutoCloseable watchPath(Path path, Runnable onChange) throws IOException;

    AutoCloseable watchEntries(Path dir, Runnable onChange) throws IOException;

    /** The session {@code v}'s kind keeps for this run, as its checks get it ({@link io.muster.engine.resource.Context#session}). */
    <S> S session(Vertex v, Class<S> type) throws IOException, InterruptedException;
}
