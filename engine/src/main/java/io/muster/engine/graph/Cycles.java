package io.muster.engine.graph;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Finds a dependency cycle, reported in order so the user can see where to cut it. */
public final class Cycles {
    private static final byte ON_PATH = 1;
    private static final byte DONE = 2;

    private Cycles() {}

    /**
     * One cycle as ids {@code [a, b, c, a]}, or an empty list when the edges are acyclic. Linear in vertices and
     * edges, on numbers rather than ids: every graph a run receives or reads from its cache is checked again.
     */
    public static List<String> find(Collection<String> ids, List<Edge> edges) {
        Map<String, Integer> index = new HashMap<>(ids.size() * 2);
        List<String> names = new ArrayList<>(ids);
        for (String id : names) index.putIfAbsent(id, index.size());
        int[] from = new int[edges.size()];
        int[] to = new int[edges.size()];
        for (int e = 0; e < edges.size(); e++) {
            from[e] = number(index, names, edges.get(e).from());
            to[e] = number(index, names, edges.get(e).to());
        }
        // successors of n: successor[first[n] .. first[n + 1]), in the edges' order
        int n = names.size();
        int[] first = new int[n + 1];
        for (int f : from) first[f + 1]++;
        for (int i = 0; i < n; i++) first[i + 1] += first[i];
        int[] successor = new int[edges.size()];
        int[] fill = first.clone();
        for (int e = 0; e < from.length; e++) successor[fill[from[e]]++] = to[e];

        byte[] state = new byte[n];
        int[] path = new int[n];
        int[] cursor = new int[n];
        for (int start = 0; start < ids.size(); start++) {
            if (state[start] != 0) continue;
            // iterative depth-first search: deep graphs must not overflow the stack
            int depth = 0;
            path[0] = start;
            cursor[0] = first[start];
            state[start] = ON_PATH;
            while (depth >= 0) {
                int at = path[depth];
                if (cursor[depth] == first[at + 1]) {
                    state[at] = DONE;
                    depth--;
                    continue;
                }
                int next = successor[cursor[depth]++];
                if (state[next] == 0) {
                    state[next] = ON_PATH;
                    path[++depth] = next;
                    cursor[depth] = first[next];
                } else if (state[next] == ON_PATH) {
                    List<String> cycle = new ArrayList<>();
                    int from0 = depth;
                    while (path[from0] != next) from0--;
                    for (int i = from0; i <= depth; i++) cycle.add(names.get(path[i]));
                    cycle.add(names.get(next));
                    return cycle;
                }
            }
        }
        return List.of();
    }

    /** The number of {@code id}, given one when it is not among the vertices (an edge's end the caller has not checked). */
    private static int number(Map<String, Integer> index, List<String> names, String id) {
        Integer known = index.get(id);
        if (known != null) return known;
        index.put(id, names.size());
        names.add(id);
        return names.size() - 1;
    }
}
