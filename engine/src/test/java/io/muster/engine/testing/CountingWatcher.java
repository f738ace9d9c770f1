package io.muster.engine.testing;

import io.muster.engine.resource.Watcher;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Watcher} for a resource's watch run by a test: counts the times it was told to check again, and hands
 * out {@code session} as the kind's session. Watching paths is the engine's, not this one's.
 */
public record CountingWatcher(AtomicInteger changes, Object session) implements Watcher {

    public CountingWatcher() {
        this(new AtomicInteger(), null);
    }

    public CountingWatcher(Object session) {
        this(new AtomicInteger(), session);
    }

    @Override
    public void changed() {
        changes.incrementAndGet();
    }

    @Override
    public void ready() {}

    @Override
    public AutoCloseable watchPath(Path path, Runnable onChange) {
        throw new UnsupportedOperationException("a test watcher watches no paths");
    }

    @Override
    public AutoCloseable watchEntries(Path dir, Runnable onChange) {
        throw new UnsupportedOperationException("a test watcher watches no paths");
    }

    @Override
    public void hold(AutoCloseable handle) {
        throw new UnsupportedOperationException("a test watcher runs the watch on the test's thread and holds nothing");
    }

    @Override
    public <S> S session(Class<S> type) {
        return type.cast(session);
    }

    @Override
    public Logger log() {
        return LoggerFactory.getLogger(CountingWatcher.class);
    }
}
