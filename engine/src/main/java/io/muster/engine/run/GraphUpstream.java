package io.muster.engine.run;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.resource.Foreseeable;
import io.muster.engine.resource.Type;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The resources one vertex comes after, directly or not, as {@link Foreseeable} asks about them: a resource
 * whose kind's name is its path (a file, a document) makes that path; an exec or an apply runs commands, which
 * may make anything, as may a kind that {@linkplain io.muster.engine.resource.ResourceKind#runsCommands runs commands}
 * (a package's maintainer scripts). What a late (run-time) path will be is not known in noop, so such a resource may make any path.
 */
final class GraphUpstream implements Foreseeable.Upstream {
    private static final Set<String> COMMAND_KINDS = Set.of("exec", "apply");

    private final List<Vertex> upstream;

    GraphUpstream(Graph graph, Vertex v) {
        Set<String> seen = new HashSet<>();
        Deque<String> todo = new ArrayDeque<>(List.of(v.id()));
        while (!todo.isEmpty()) {
            for (Edge e : graph.incoming(todo.pop())) {
                if (seen.add(e.from())) todo.push(e.from());
            }
        }
        upstream = seen.stream().map(graph::vertex).toList();
    }

    @Override
    public boolean mayMake(Path path) {
        return runsCommands() || upstream.stream().anyMatch(u -> makes(u, path.normalize()));
    }

    @Override
    public boolean runsCommands() {
        return upstream.stream().anyMatch(u -> COMMAND_KINDS.contains(u.kind().name()) || u.kind().runsCommands());
    }

    private static boolean makes(Vertex u, Path path) {
        String nameProperty = u.kind().schema().nameProperty();
        if (nameProperty == null || u.kind().schema().property(nameProperty).type() != Type.PATH) return false;
        if (u.late().containsKey(nameProperty)) return true;
        Object set = u.params().raw(nameProperty);
        return Path.of(set != null ? set.toString() : u.name()).normalize().equals(path);
    }
}
