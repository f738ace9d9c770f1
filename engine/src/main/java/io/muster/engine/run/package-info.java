/**
 * Running a compiled graph: once ({@code muster apply}, {@code plan}, {@code check}: {@link
 * io.muster.engine.run.OneShotRun}) or for as long as muster runs ({@code muster run}: {@link
 * io.muster.engine.run.LiveRun}, {@link io.muster.engine.run.ManifestReloader}). Both are the one
 * scheduler, {@code Engine}: a one-shot run is the engine with watches off, ended once every resource
 * has settled. May import {@code graph}, {@code resource}, {@code report}, {@code template}, {@code compile}
 * (conditions, rendering, references), {@code manifest} (marks), {@code health}, {@code metrics}, {@code
 * util}; never the cli.
 *
 * <h2>The rules, one place each</h2>
 * <ul>
 *   <li>An attempt (rate limit, semaphores, retry and delay), and the retries of a failed watch: {@code Attempts}.</li>
 *   <li>Running a vertex once (conditions, late values, checkApply, health checks; whatever it throws
 *       fails it alone): {@code VertexRun}.</li>
 *   <li>Waiting for dependencies, blocking dependents on failure, passing on refreshes and changed values:
 *       {@code Worker}, with {@code Propagation} for what a failure and a change pass on.</li>
 *   <li>The outcome of an aggregate vertex from its members ({@code apply}): {@code AggregateOutcome}.</li>
 *   <li>Time and threads: {@code Clock} and a {@link java.util.concurrent.ThreadFactory}, injected, so tests
 *       drive them ({@code FakeClock}); the manifest reloader's quiet period runs on the live run's.</li>
 * </ul>
 *
 * <h2>Concurrency design</h2>
 * <ul>
 *   <li><b>Engine.</b> {@code swap} and {@code close} are {@code synchronized} on the engine: one graph change
 *       at a time. A swap builds the next {@code Generation} (graph, workers, values, vertex runner,
 *       aggregate outcomes) and publishes it in one volatile write; workers read the current generation
 *       without a lock, so they see a graph and its workers together. {@code halt} (a one-shot stop) sets a
 *       volatile flag that every attempt looks at before it begins.</li>
 *   <li><b>Worker.</b> One thread, its loop, runs the resource; started when it is given work and ended when
 *       it has none (an idle resource holds no thread), never two at once. The loop alone writes the worker's published
 *       state ({@code state}, {@code failure}, {@code last}, {@code convergedOnce}, {@code failing}: volatile,
 *       read by dependents, swaps and reports). The worker's {@code lock} guards the work given to it
 *       ({@code Work}: signalled, dirty, refresh, members changed), which any thread may add to ({@code
 *       poke}, {@code wake}), and its {@code Phase} (waiting, attempting, stopping), which a stop moves: a
 *       waiting loop (a retry's delay) is interrupted, an attempt under way is never interrupted and finishes first. A worker
 *       publishes its state before it wakes its dependents, and they look again on every wake-up, so no
 *       wake-up is lost. A worker sees the run only through {@code WorkerRun}, never the engine itself.</li>
 *   <li><b>WorkerWatch.</b> A thread of its own per watch (or poll), which also waits out a failed watch's
 *       {@code meta.delay}; a watch done by shared path watches ({@code Watcher.hold}) returns, and its
 *       thread ends, once they are in place; its {@code lock} guards starting and ending one, so at most one runs. It tells the
 *       worker by {@code poke}.</li>
 *   <li><b>ManifestReloader.</b> One thread, which waits for the manifests to be quiet and swaps; its {@code
 *       lock} guards the pending edit and when it came, written by the path watches' dispatcher.</li>
 *   <li><b>Run events.</b> Workers tell the run what happened through {@code RunEvents}, from their own
 *       threads: {@code LiveRun} counts (metrics), reports every check and feeds {@code Convergence}, whose
 *       lock guards the busy set and the quiet-period clocks (drift's, and a new graph's settling), judged by a
 *       thread of its own; {@code
 *       OneShotRun} reports each resource once as it settles and wakes {@code run()} when all have.</li>
 *   <li><b>Shared state.</b> {@code Values} (concurrent maps: what resources produced), {@code Semaphores}
 *       (acquired in name order, global last, so two resources never wait on each other), {@code
 *       RateLimiter} (synchronized), {@code PathWatches} (synchronized; one dispatcher thread).</li>
 * </ul>
 *
 * <h2>Per-run resources</h2>
 * Both modes begin a run by constructing an {@code Engine} and end it with {@code Engine.close} (after its
 * workers have stopped): that is the one place where what a run shares ({@code RunShared}: the
 * {@code World}, the kinds' sessions in {@code KindSessions}) is opened and closed. A swap closes the sessions
 * of kinds no resource uses any more, after their reversals.
 */
package io.muster.engine.run;
