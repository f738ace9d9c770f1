package io.muster.engine.compile;

import io.muster.engine.graph.Cycles;
import io.muster.engine.graph.Edge;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.Problems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles a manifest into a {@link Graph}: reads it and the child manifests its aggregates include, each with its data resolved for this host, renders and type-checks the properties, resolves
 * relations (across manifests: ids are unique in the whole graph), adds automatic edges, rejects cycles,
 * and merges autogroups.
 * Every problem found is reported at once, each with its file, line and column.
 */
public final class ManifestCompiler {
    private final CompileOptions options;

    public ManifestCompiler(CompileOptions options) {
        this.options = options;
    }

    /**
     * The graph of {@code manifest}. Whatever goes wrong (a bug, memory running out, a stack overflow in a template
     * nested too deeply) is a problem pointing at the declaration or manifest where it happened, never an
     * exception of another kind: a broken manifest must not end a {@code muster run} watching it.
     */
    public Graph compile(Path manifest) throws ManifestException {
        try {
            return compileOrThrow(manifest);
        } catch (RuntimeException | Error e) {
            throw new ManifestException(Mark.of(manifest), failure(e), e);
        }
    }

    private Graph compileOrThrow(Path manifest) throws ManifestException {
        Problems problems = new Problems();
        Composition composition = new Composition(options, problems, manifest);
        List<Declaration> declarations = composition.read(manifest);
        Map<String, Declaration> byId = index(declarations, problems);

        Path bundle = manifest.toAbsolutePath().normalize().getParent();
        VertexBuilder builder = new VertexBuilder(byId, options.kinds(), problems, bundle);
        List<Vertex> built = new ArrayList<>();
        for (Declaration d : byId.values()) {
            try {
                built.add(builder.build(d));
            } catch (Invalid e) {
                // its problems are reported; it has no vertex
            } catch (RuntimeException | Error e) {
                problems.add(d.mark(), d.id() + ": " + failure(e), e);
            }
        }
        SamePath.reject(builder.instances(), byId, problems);
        List<Vertex> vertices = ScopeTables.assign(built, byId, problems);
        problems.throwIfAny();
        List<Edge> edges = new ArrayList<>(builder.edges());
        edges.addAll(composition.sequenceEdges());
        MemberEdges.add(declarations, composition.members(), byId, edges);
        edges.addAll(AutoEdges.find(vertices, builder.instances(), edges));
        List<Edge> unique = List.copyOf(new LinkedHashSet<>(edges));
        rejectCycles(byId, unique);
        return AutoGroups.merge(vertices, builder.instances(), unique)
                .compiledFrom(composition.manifests(), BundleFiles.of(bundle, vertices, options.reads())).collecting(composition.collects());
    }

    private static String failure(Throwable e) {
        return e instanceof StackOverflowError ? "nested too deeply to compile (the stack overflowed)" : "internal error: " + e;
    }

    private static Map<String, Declaration> index(List<Declaration> declarations, Problems problems) {
        Map<String, Declaration> byId = new LinkedHashMap<>();
        for (Declaration d : declarations) {
            Declaration previous = byId.putIfAbsent(d.id(), d);
            if (previous != null) {
                String where = previous.mark().file().equals(d.mark().file()) ? "line " + previous.mark().line() : previous.mark().toString();
                problems.add(d.mark(), "duplicate resource " + d.id() + " (first declared at " + where + ")");
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
    static final Set<String> COMMON = Set.of("require", "before", "notify", "subscribe", "alias", "tags", "control", "meta",
            "health_checks", "recv");
}
