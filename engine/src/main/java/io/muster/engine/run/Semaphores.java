package io.muster.engine.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * The counted semaphores of {@code meta.sema} ({@code name} holds one, {@code name:N} holds N; the first
 * size seen for a name wins), shared by every resource that names them, plus the global one of
 * {@code --sema}. Acquired in name order, global last, so two resources never wait on each other.
 */
final class Semaphores {
    private final Semaphore global;
    private final Map<String, Semaphore> named = new ConcurrentHashMap<>();

    Semaphores(int global) {
        this.global = new Semaphore(global);
    }

    /** Permits held; closing gives them back. */
    interface Permits extends AutoCloseable {
        @Override
        void close();
    }

    /** A permit of every semaphore in {@code specs} and a global one. */
    Permits acquire(List<String> specs) throws InterruptedException {
        TreeMap<String, Semaphore> wanted = new TreeMap<>();
        for (String spec : specs) {
            int colon = spec.lastIndexOf(':');
            String name = colon < 0 ? spec : spec.substring(0, colon);
            int size = colon < 0 ? 1 : Integer.parseInt(spec.substring(colon + 1));
            wanted.put(name, named.computeIfAbsent(name, k -> new Semaphore(size)));
        }
        List<Semaphore> held = new ArrayList<>(wanted.size() + 1);
        try {
            for (Semaphore s : wanted.values()) {
                s.acquire();
                held.add(s);
            }
            global.acquire();
            held.add(global);
        } catch (InterruptedException e) {
            held.forEach(Semaphore::release);
            throw e;
        }
        return () -> held.forEach(Semaphore::release);
    }
}
