package io.muster.engine.world;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.function.Consumer;
import org.slf4j.LoggerFactory;

/**
 * One listener's calls, in the order they were offered and one at a time, on a virtual thread while there
 * are any (never on the thread that offers, which may hold the World's lock). What the listener throws is
 * logged and the next call still comes. Public for Worlds outside this package (the agent's over etcd).
 */
public final class Delivery<T> implements World.Registration {
    private final String what;
    private final Consumer<T> listener;
    private final Consumer<Delivery<T>> onClose;
    private final Queue<T> pending = new ArrayDeque<>(); // guarded by this
    private boolean draining; // guarded by this: a thread is delivering pending
    private boolean closed; // guarded by this

    /**
     * @param what names the watch in a log line ({@code watch of host:motd})
     * @param onClose told once this delivery is closed, to forget it
     */
    public Delivery(String what, Consumer<T> listener, Consumer<Delivery<T>> onClose) {
        this.what = what;
        this.listener = listener;
        this.onClose = onClose;
    }

    public void offer(T state) {
        synchronized (this) {
            if (closed) return;
            pending.add(state);
            if (draining) return;
            draining = true;
        }
        Thread.ofVirtual().name("world-delivery").start(this::drain);
    }

    private void drain() {
        while (true) {
            T next;
            synchronized (this) {
                next = closed ? null : pending.poll();
                if (next == null) {
                    draining = false;
                    return;
                }
            }
            try {
                listener.accept(next);
            } catch (RuntimeException e) {
                LoggerFactory.getLogger("muster.world").warn("the listener of the {} failed: {}", what, e.toString());
            }
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
            pending.clear();
        }
        onClose.accept(this);
    }
}
