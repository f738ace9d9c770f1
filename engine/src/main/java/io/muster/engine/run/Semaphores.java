package io.muster.engine.run;

import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * The counted semaphores of {@code meta.sema} ({@code name} holds one, {@code name:N} holds N; the first
 * size declared for a name in the running graph wins), shared by every resource that names them, plus the
 * global one of {@code --sema}. Acquired in name order, global last, so two resources never wait on each other.
 */
final class Semaphores {
    private final Semaphore global;
    private final Map<String, Sized> named = new ConcurrentHashMap<>();

    private record Sized(int size, Semaphore semaphore) {}

    Semaphores(int global) {
        this.global = new Semaphore(global);
    }

    /** Permits held; closing gives them back. */
    interface Permits extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Takes the sizes {@code graph} declares (the first one declared for a name wins). A semaphore whose size
     * changed is replaced: permits held of the old one go back to it, the next acquire uses the new one.
     * A resource already waiting on the old one still gets it, so for a moment both sizes' holders may
     * run; a resize is rare and never blocks anything forever.
     */
    void use(Graph graph) {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        for (Vertex v : graph.vertices()) for (String spec : v.meta().sema()) sizes.putIfAbsent(name(spec), size(spec));
        sizes.forEach((name, size) -> named.compute(name, (k, s) -> s != null && s.size() == size ? s : new Sized(size, new Semaphore(size))));
    }

    /** A permit of every semaphore in {@code specs} and a global one. */
    Permits acquire(List<String> specs) throws InterruptedException {
        if (specs.isEmpty()) { // most resources: no ordering, nothing to allocate on every check
            global.acquire();
            return global::release;
        }
        TreeMap<String, Semaphore> wanted = new TreeMap<>();
        for (String spec : specs) {
            String name = name(spec);
            wanted.put(name, named.computeIfAbsent(name, k -> new Sized(size(spec), new Semaphore(size(spec)))).semaphore());
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

    private static String name(String spec) {
        int colon = spec.lastIndexOf(':');
        return colon < 0 ? spec : spec.substring(0, colon);
    }

    private static int size(String spec) {
        int colon = spec.lastIndexOf(':');
        return colon < 0 ? 1 : Integer.parseInt(spec.substring(colon + 1));
    }
}
