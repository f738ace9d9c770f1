package io.muster.engine.compile;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Vertex;
import io.muster.engine.resource.Edgeable;
import io.muster.engine.resource.Resource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Automatic edges between {@link Edgeable} resources: a file after its nearest managed parent directory,
 * an exec after its managed {@code cwd}, a service after every managed file under {@code /etc/NAME/} (a
 * {@linkplain Edgeable#wantsTrees() tree} want). Never added where the user already related the two resources
 * (in either direction), and not for resources with {@code meta.autoedge: false}.
 */
public final class AutoEdges {
    private AutoEdges() {}

    public static List<Edge> find(List<Vertex> vertices, Map<String, Resource> instances, List<Edge> explicit) {
        TreeMap<String, String> providers = new TreeMap<>(); // sorted, so that a tree's providers are one sub-map
        for (Vertex v : vertices) {
            if (v.meta().autoedge() && instances.get(v.id()) instanceof Edgeable e) {
                for (String uid : e.provides()) providers.putIfAbsent(uid, v.id());
            }
        }
        Set<String> related = new HashSet<>();
        for (Edge e : explicit) {
            related.add(e.from() + "\0" + e.to());
            related.add(e.to() + "\0" + e.from());
        }
        Set<Edge> edges = new LinkedHashSet<>();
        for (Vertex v : vertices) {
            if (!v.meta().autoedge() || !(instances.get(v.id()) instanceof Edgeable e)) continue;
            for (List<String> alternatives : e.wants()) {
                for (String uid : alternatives) {
                    String provider = providers.get(uid);
                    if (provider == null || provider.equals(v.id())) continue;
                    if (!related.contains(provider + "\0" + v.id())) edges.add(new Edge(provider, v.id(), EdgeReason.AUTOEDGE));
                    break;
                }
            }
            for (String tree : e.wantsTrees()) {
                for (String provider : tree(providers, tree)) {
                    if (!provider.equals(v.id()) && !related.contains(provider + "\0" + v.id())) {
                        edges.add(new Edge(provider, v.id(), EdgeReason.AUTOEDGE));
                    }
                }
            }
        }
        return new ArrayList<>(edges);
    }

    /** The providers of {@code root} and of every uid under it ({@code root/…}). */
    private static List<String> tree(TreeMap<String, String> providers, String root) {
        List<String> found = new ArrayList<>();
        if (providers.containsKey(root)) found.add(providers.get(root));
        SortedMap<String, String> under = providers.subMap(root + "/", root + "0"); // '0' follows '/': all of root/…
        found.addAll(under.values());
        return found;
    }
}
