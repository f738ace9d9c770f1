package io.muster.engine.testing;

import io.muster.engine.resource.Context;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.SessionContext;
import io.muster.engine.resource.TypedParams;
import io.muster.engine.resource.Watcher;
import io.muster.engine.world.World;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code counted}: a kind whose session counts how often it is opened and closed and which resources used it.
 * Each resource takes the session, notes its name and manifest directory in it, and writes {@code used} to
 * the World under its name (a host key); its watch takes the session too, and notes its name as watching. The session can be told to fail opening or closing. Not registered
 * with ServiceLoader: tests add it with {@link io.muster.engine.resource.Kinds#with}.
 */
public final class SessionKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of(null, Set.of());

    private final String openFailure;
    private final String closeFailure;
    private final AtomicInteger opens = new AtomicInteger();
    private final List<Session> sessions = new CopyOnWriteArrayList<>();

    /** A session that opens and closes. */
    public SessionKind() {
        this(null, null);
    }

    /** @param openFailure the message opening fails with, or null; {@code closeFailure} likewise for closing */
    public SessionKind(String openFailure, String closeFailure) {
        this.openFailure = openFailure;
        this.closeFailure = closeFailure;
    }

    @Override
    public String name() {
        return "counted";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Resource create(TypedParams params) {
        return new Counted(params.name());
    }

    @Override
    public AutoCloseable openSession(SessionContext context) throws IOException {
        opens.incrementAndGet();
        if (openFailure != null) throw new IOException(openFailure);
        Session session = new Session(context.hostname());
        sessions.add(session);
        return session;
    }

    /** How often opening was tried, failures included. */
    public int opens() {
        return opens.get();
    }

    /** The sessions opened, in order. */
    public List<Session> sessions() {
        return List.copyOf(sessions);
    }

    /** One run's session: who used it, and how often it was closed. */
    public final class Session implements AutoCloseable {
        private final String hostname;
        private final Map<String, Path> users = new ConcurrentHashMap<>();
        private final Set<String> watching = ConcurrentHashMap.newKeySet();
        private final AtomicInteger closes = new AtomicInteger();

        Session(String hostname) {
            this.hostname = hostname;
        }

        /** The host it was opened for. */
        public String hostname() {
            return hostname;
        }

        /** By resource name, the manifest directory its context gave. */
        public Map<String, Path> users() {
            return Map.copyOf(users);
        }

        /** The names of the resources whose watch took the session. */
        public Set<String> watching() {
            return Set.copyOf(watching);
        }

        public int closes() {
            return closes.get();
        }

        void use(String name, Path manifestDirectory) {
            if (closes.get() > 0) throw new IllegalStateException("the session was used after it was closed");
            users.put(name, manifestDirectory);
        }

        void watch(String name) {
            if (closes.get() > 0) throw new IllegalStateException("the session was watched after it was closed");
            watching.add(name);
        }

        @Override
        public void close() throws IOException {
            closes.incrementAndGet();
            if (closeFailure != null) throw new IOException(closeFailure);
        }
    }

    record Counted(String name) implements Resource {
        @Override
        public Result checkApply(Context context, boolean apply) throws Exception {
            context.session(Session.class).use(name, context.manifestDirectory());
            context.world().put(World.Key.host(name), "used").join();
            return Result.STABLE;
        }

        @Override
        public void watch(Watcher watcher) throws Exception {
            watcher.session(Session.class).watch(name);
            watcher.ready();
            Watcher.awaitCancel();
        }
    }
}
