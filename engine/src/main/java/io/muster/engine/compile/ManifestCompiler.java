package io.muster.engine.compile;

import io.muster.engine.graph.Cycles;
import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import io.muster.engine.manifest.YamlReader;
import io.muster.engine.template.Lookup;
import io.muster.engine.template.Scope;
import io.muster.engine.util.Suggest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles a manifest into a {@link Graph}: resolves data for this host, reads the resource declarations,
 * renders and type-checks their properties, resolves relations, adds automatic edges, and rejects cycles.
 * Every problem found is reported at once, each with its file, line and column.
 */
public final class ManifestCompiler {
    private static final List<String> TOP_LEVEL = List.of("data", "hierarchy", "overrides", "resources");

    private final CompileOptions options;

    public ManifestCompiler(CompileOptions options) {
        this.options = options;
    }

    public Graph compile(Path manifest) throws ManifestException {
        YNode root = YamlReader.read(manifest);
        if (!(root instanceof YNode.Dict top)) {
            throw new ManifestException(root.mark(), "expected a manifest map with a 'resources:' list, got " + root.describe());
        }
        Problems problems = new Problems();
        for (YNode.Entry e : top.entries().values()) {
            if (!TOP_LEVEL.contains(e.key())) {
                problems.add(e.keyMark(), "unknown top-level key '" + e.key() + "'" + Suggest.hint(e.key(), TOP_LEVEL)
                        + "; expected " + String.join(", ", TOP_LEVEL));
            }
        }
        Path directory = manifest.toAbsolutePath().normalize().getParent();
        Scope base = new Scope(Map.of(), options.facts(), options.env(), directory, Lookup.NONE);
        Map<String, Object> data = DataResolver.resolve(top, base, options.data());
        Scope scope = new Scope(data, options.facts(), options.env(), directory, Lookup.NONE);

        List<Declaration> declarations = new Declarations(problems, scope).read(top.get("resources"));
        Map<String, Declaration> byId = index(declarations, problems);

        VertexBuilder builder = new VertexBuilder(byId, problems);
        List<Vertex> vertices = new ArrayList<>();
        for (Declaration d : byId.values()) {
            Vertex v = builder.build(d);
            if (v != null) vertices.add(v);
        }
        problems.throwIfAny();
        List<Edge> edges = new ArrayList<>(builder.edges());
        edges.addAll(AutoEdges.find(vertices, builder.instances(), edges));
        List<Edge> unique = List.copyOf(new LinkedHashSet<>(edges));
        rejectCycles(byId, unique);
        return new Graph(vertices, unique);
    }

    private static Map<String, Declaration> index(List<Declaration> declarations, Problems problems) {
        Map<String, Declaration> byId = new LinkedHashMap<>();
        for (Declaration d : declarations) {
            Declaration previous = byId.putIfAbsent(d.id(), d);
            if (previous != null) {
                problems.add(d.mark(), "duplicate resource " + d.id() + " (first declared at line " + previous.mark().line() + ")");
            }
        }
        return byId;
    }

    private static void rejectCycles(Map<String, Declaration> byId, List<Edge> edges) throws ManifestException {
        List<String> cycle = Cycles.find(byId.keySet(), edges);
        if (cycle.isEmpty()) return;
        Mark mark = byId.get(cycle.get(0)).mark();
        throw new ManifestException(mark, "dependency cycle: " + String.join(" -> ", cycle));
    }

    /** Names of the relation properties every resource accepts, besides its kind's own. */
    static final Set<String> RELATIONS = Set.of("require", "before", "notify", "subscribe");
    static final Set<String> COMMON = Set.of("require", "before", "notify", "subscribe", "alias", "tags", "control", "meta");
}
