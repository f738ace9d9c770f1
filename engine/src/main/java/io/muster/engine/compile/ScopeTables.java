package io.muster.engine.compile;

import io.muster.engine.graph.Vertex;
import io.muster.engine.manifest.Mark;
import io.muster.engine.manifest.Problems;
import io.muster.engine.template.Scope;
import io.muster.engine.template.ScopeTable;
import io.muster.engine.template.TemplateReads;
import io.muster.engine.util.Plain;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Gives the vertices of each manifest one {@link ScopeTable}: its data, and of the facts and environment only
 * what the templates left for run time read (late properties, {@code control} conditions), so a graph never
 * carries the compiling host's whole environment. A run-time template that reads the environment by a
 * computed name is a problem: no list of names could say what it needs.
 */
final class ScopeTables {
    /** What the run-time templates of one manifest read; keyed by its table as the vertex builder made it. */
    private static final class Reads {
        final Scope scope;
        final Set<String> facts = new TreeSet<>();
        final Set<String> env = new TreeSet<>();
        boolean allFacts;

        Reads(Scope scope) {
            this.scope = scope;
        }

        ScopeTable table(ScopeTable base) {
            Map<String, Object> readFacts = new LinkedHashMap<>();
            Set<String> names = allFacts ? scope.facts().keySet() : facts;
            for (String name : names) {
                if (scope.facts().containsKey(name)) readFacts.put(name, scope.facts().get(name));
            }
            Map<String, String> readEnv = new LinkedHashMap<>();
            for (String name : env) {
                if (scope.env().containsKey(name)) readEnv.put(name, scope.env().get(name));
            }
            return new ScopeTable(base.directory(), base.data(), Plain.sorted(readFacts), readEnv, base.dialect());
        }
    }

    private ScopeTables() {}

    /**
     * {@code vertices}, each with its manifest's table; the problems found are added to {@code problems}.
     *
     * @param byId the declarations, whose scopes hold all facts and the whole environment
     */
    static List<Vertex> assign(List<Vertex> vertices, Map<String, Declaration> byId, Problems problems) {
        Map<ScopeTable, Reads> byManifest = new LinkedHashMap<>();
        for (Vertex v : vertices) {
            Reads reads = byManifest.computeIfAbsent(v.scope(), table -> new Reads(byId.get(v.id()).scope()));
            TemplateReads found = runTimeReads(v);
            if (found.computedEnv()) {
                problems.add(runTimeMark(v), v.id() + ": a template evaluated at run time reads the environment by a computed"
                        + " name; name each variable (env.NAME), so that only those travel with the graph");
            }
            reads.facts.addAll(found.facts());
            reads.env.addAll(found.env());
            reads.allFacts |= found.allFacts();
        }
        Map<ScopeTable, ScopeTable> tables = new LinkedHashMap<>();
        byManifest.forEach((base, reads) -> tables.put(base, reads.table(base)));
        List<Vertex> out = new ArrayList<>(vertices.size());
        for (Vertex v : vertices) out.add(v.withScope(tables.get(v.scope())));
        return out;
    }

    /** What {@code v}'s templates read at run time: its late properties and its conditions. */
    static TemplateReads runTimeReads(Vertex v) {
        TemplateReads reads = new TemplateReads(v.scope().dialect());
        v.late().values().forEach(reads::addValue);
        if (v.control().onlyIf() != null) reads.addCondition(v.control().onlyIf().source());
        if (v.control().unless() != null) reads.addCondition(v.control().unless().source());
        return reads;
    }

    /** Where a run-time template of {@code v} is written: its first late property, else its conditions. */
    private static Mark runTimeMark(Vertex v) {
        if (!v.late().isEmpty()) return v.propertyMarks().getOrDefault(v.late().keySet().iterator().next(), v.mark());
        return v.propertyMarks().getOrDefault("control", v.mark());
    }

    /** {@code directory} relative to the bundle's ({@code ""} for the bundle's own), with {@code /} between names. */
    static String relative(Path bundle, Path directory) {
        Path relative = bundle.relativize(directory.toAbsolutePath().normalize());
        return relative.toString().replace(relative.getFileSystem().getSeparator(), "/");
    }
}
