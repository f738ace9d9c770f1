package io.muster.engine.graph;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Finds a dependency cycle, reported in order so the user can see where to cut it. */
public final class Cycles {
    private Cycles() {}

    /** One cycle as ids {@code [a, b, c, a]}, or an empty list when the edges are acyclic. */
    public static List<String> find(Collection<String> ids, List<Edge> edges) {
        Map<String, List<String>> next = new HashMap<>();
        for (Edge e : edges) next.computeIfAbsent(e.from(), k -> new ArrayList<>()).add(e.to());
        Map<String, Integer> state = new HashMap<>(); // 1 = on the stack, 2 = done
        for (String start : ids) {
            if (state.containsKey(start)) continue;
            // iterative depth-first search: deep graphs must not overflow the stack
            List<String> path = new ArrayList<>();
            List<Integer> cursor = new ArrayList<>();
            path.add(start);
            cursor.add(0);
            state.put(start, 1);
            while (!path.isEmpty()) {
                int top = path.size() - 1;
                String at = path.get(top);
                List<String> successors = next.getOrDefault(at, List.of());
                int i = cursor.get(top);
                if (i == successors.size()) {
                    state.put(at, 2);
                    path.remove(top);
                    cursor.remove(top);
                    continue;
                }
                cursor.set(top, i + 1);
                String to = successors.get(i);
                Integer s = state.get(to);
                if (s == null) {
                    state.put(to, 1);
                    path.add(to);
                    cursor.add(0);
                } else if (s == 1) {
                    List<String> cycle = new ArrayList<>(path.subList(path.indexOf(to), path.size()));
                    cycle.add(to);
                    return cycle;
                }
            }
        }
        return List.of();
    }
}
