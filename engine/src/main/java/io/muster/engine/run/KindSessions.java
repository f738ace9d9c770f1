package io.muster.engine.run;

import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.SessionContext;
import io.muster.engine.world.World;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kinds' sessions of one run ({@link ResourceKind#openSession}): each opened when a resource of its kind
 * first asks, once however many ask at the same time; closed when the run ends ({@link #close}) or a swap
 * leaves its kind out ({@link #closeAbsent}). A failed open is not kept: those waiting for it fail, the next
 * to ask tries again (a service manager that was still starting may be up by then). Thread-safe.
 */
final class KindSessions implements AutoCloseable {
    /** What a kind that keeps no session has open. */
    private static final Object NONE = new Object();

    private final RunOptions options;
    private final World world;
    private final boolean live;
    /** By kind name: the session, or its open under way. Guarded by this, as is {@code closed}. */
    private final Map<String, CompletableFuture<Object>> sessions = new HashMap<>();
    private boolean closed;

    /** @param live whether the run keeps going once converged (see {@link SessionContext#live}) */
    KindSessions(RunOptions options, World world, boolean live) {
        this.options = options;
        this.world = world;
        this.live = live;
    }

    /** {@code kind}'s session, opened now when it is not open; see {@link io.muster.engine.resource.Context#session}. */
    <S> S of(ResourceKind kind, Class<S> type) throws IOException, InterruptedException {
        CompletableFuture<Object> session;
        boolean opening = false;
        synchronized (this) {
            if (closed) throw new IllegalStateException("the run has ended: no session of " + kind.name() + " opens any more");
            session = sessions.get(kind.name());
            if (session == null) {
                session = new CompletableFuture<>();
                sessions.put(kind.name(), session);
                opening = true;
            }
        }
        if (opening) open(kind, session);
        Object open;
        try {
            open = session.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            String why = cause.getMessage() == null ? cause.toString() : cause.getMessage();
            throw new IOException("cannot open the session of " + kind.name() + ": " + why, cause);
        }
        if (open == NONE) throw new IllegalStateException("kind " + kind.name() + " keeps no session");
        if (!type.isInstance(open)) {
            throw new IllegalStateException("the session of " + kind.name() + " is a " + open.getClass().getName() + ", not a " + type.getName());
        }
        return type.cast(open);
    }

    private void open(ResourceKind kind, CompletableFuture<Object> session) {
        try {
            AutoCloseable opened = kind.openSession(context(kind));
            boolean late;
            synchronized (this) { // completed under the lock: a close takes it, or this sees it came too late
                late = closed || sessions.get(kind.name()) != session; // the run ended, or the kind left, meanwhile
                session.complete(opened == null ? NONE : opened);
            }
            if (late && opened != null) close(kind.name(), opened);
        } catch (Throwable e) { // an Error too: it fails those that asked, not the run
            if (e instanceof InterruptedException) Thread.currentThread().interrupt(); // the run is stopping
            synchronized (this) {
                sessions.remove(kind.name(), session);
            }
            session.completeExceptionally(e);
        }
    }

    private SessionContext context(ResourceKind kind) {
        Logger log = LoggerFactory.getLogger("muster." + kind.name());
        return new SessionContext() {
            @Override
            public String hostname() {
                return options.hostname();
            }

            @Override
            public World world() {
                return world;
            }

            @Override
            public Logger log() {
                return log;
            }

            @Override
            public boolean debug() {
                return options.debug();
            }

            @Override
            public boolean live() {
                return live;
            }
        };
    }

    /** Closes the sessions of kinds that no vertex of {@code next} has: none of their resources is left. */
    void closeAbsent(Graph next) {
        Set<String> kinds = new HashSet<>();
        for (Vertex v : next.vertices()) kinds.add(v.kind().name());
        Map<String, AutoCloseable> leaving;
        synchronized (this) {
            leaving = take(kind -> !kinds.contains(kind));
        }
        leaving.forEach(KindSessions::close);
    }

    /** Closes every open session; none opens after this. */
    @Override
    public void close() {
        Map<String, AutoCloseable> open;
        synchronized (this) {
            closed = true;
            open = take(kind -> true);
        }
        open.forEach(KindSessions::close);
    }

    /**
     * Forgets the sessions of the kinds {@code which} selects and returns those open, to be closed. One still
     * opening is forgotten too: it closes what it opens itself, once it sees it came too late. (A failed open
     * is never found here: it leaves the map before it completes.) Called holding this lock.
     */
    private Map<String, AutoCloseable> take(Predicate<String> which) {
        Map<String, AutoCloseable> taken = new HashMap<>();
        sessions.entrySet().removeIf(e -> {
            if (!which.test(e.getKey())) return false;
            if (e.getValue().getNow(null) instanceof AutoCloseable open) taken.put(e.getKey(), open);
            return true;
        });
        return taken;
    }

    /** A close that fails is logged: the run's work is done, and another session's close still comes. */
    private static void close(String kind, AutoCloseable session) {
        try {
            session.close();
        } catch (Throwable e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            LoggerFactory.getLogger("muster." + kind).warn("closing the session of {} failed: {}", kind,
                    e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }
}
