package io.muster.engine.graph;

import io.muster.engine.health.HealthCheck;
import io.muster.engine.manifest.Mark;
import io.muster.engine.resource.AggregateKind;
import io.muster.engine.resource.Params;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.template.Lookup;
import io.muster.engine.template.Redaction;
import io.muster.engine.template.Scope;
import io.muster.engine.template.ScopeTable;
import io.muster.engine.util.Plain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A compiled resource, as plain data that can leave the host that compiled it: nothing in it is bound to that
 * host but its manifest directory ({@code params.directory()}), which is the bundle's directory there. {@code
 * params} holds what was known at compile time; {@code late} holds the properties, as written, whose templates
 * read values produced at run time: they are rendered with {@code scope} just before the resource runs.
 *
 * @param mark where the resource is declared (its name)
 * @param propertyMarks where each property is written, for errors found at run time
 * @param control the {@code control} conditions, evaluated just before the resource runs
 * @param scope what its run-time templates (late properties, conditions) read: its manifest's table
 * @param origin the manifest it was declared in, and the modes its chain of aggregates imposes
 * @param healthChecks run after it converged (or alone, in health-check mode)
 * @param received the sensitive values its compile-time properties were rendered from, redacted from its errors
 * @param grouped the resources autogroup merged into this one, which converges them all ({@code Groupable})
 */
public record Vertex(String id, ResourceKind kind, Params params, Map<String, Object> late, Mark mark,
                     Map<String, Mark> propertyMarks, Control control, Meta meta, List<String> tags, ScopeTable scope,
                     Origin origin, List<HealthCheck> healthChecks, Redaction received, List<Vertex> grouped) {

    public Vertex {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(params, "params");
        if (!id.equals(kind.name() + "#" + params.name())) {
            throw new IllegalArgumentException("vertex " + id + ": its kind and name make " + kind.name() + "#" + params.name());
        }
        for (String property : late.keySet()) {
            if (kind.schema().property(property) == null) {
                throw new IllegalArgumentException("vertex " + id + ": " + kind.name() + " has no property '" + property + "'");
            }
        }
        late = Plain.map(late);
        propertyMarks = Collections.unmodifiableMap(new LinkedHashMap<>(propertyMarks));
        Objects.requireNonNull(mark, "mark");
        Objects.requireNonNull(control, "control");
        Objects.requireNonNull(meta, "meta");
        tags = List.copyOf(tags);
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(origin, "origin");
        healthChecks = List.copyOf(healthChecks);
        Objects.requireNonNull(received, "received");
        grouped = List.copyOf(grouped);
    }

    public String name() {
        return params.name();
    }

    /** What its run-time templates see: its scope table in its manifest's directory, lookups going to {@code lookup}. */
    public Scope scope(Lookup lookup) {
        return scope.scope(params.directory(), lookup);
    }

    /** This vertex reading {@code table} at run time. */
    public Vertex withScope(ScopeTable table) {
        return new Vertex(id, kind, params, late, mark, propertyMarks, control, meta, tags, table, origin, healthChecks, received, grouped);
    }

    /** What the engine does with a vertex: converge its resource, or report its members' outcome. */
    public enum Role {
        /** A resource the engine converges. */
        RESOURCE,
        /** Stands for a scoped subgraph of members, each of which comes before it: its outcome is theirs. */
        AGGREGATE
    }

    /** The role its kind declares ({@link AggregateKind}). */
    public Role role() {
        return kind instanceof AggregateKind ? Role.AGGREGATE : Role.RESOURCE;
    }

    /** This vertex leading a group of {@code members} (none: the vertex as declared). */
    public Vertex grouping(List<Vertex> members) {
        return new Vertex(id, kind, params, late, mark, propertyMarks, control, meta, tags, scope, origin, healthChecks, received, members);
    }

    /**
     * Whether a change this vertex reports is real to {@code dependent}: not when this one alone runs in
     * noop, where it only would have changed, so it must not refresh or count for a dependent that acts.
     */
    public boolean changeIsRealTo(Vertex dependent) {
        return !meta.noop() || dependent.meta.noop();
    }

    /** The resources as declared: this vertex alone, then each one grouped into it. */
    public List<Vertex> declared() {
        if (grouped.isEmpty()) return List.of(this);
        List<Vertex> all = new ArrayList<>(List.of(grouping(List.of())));
        all.addAll(grouped);
        return all;
    }

    /** Its health checks, and those of the vertices grouped into it. */
    public List<HealthCheck> allHealthChecks() {
        if (grouped.isEmpty()) return healthChecks;
        List<HealthCheck> all = new ArrayList<>(healthChecks);
        for (Vertex member : grouped) all.addAll(member.healthChecks);
        return all;
    }

    public List<String> groupedIds() {
        return grouped.stream().map(Vertex::id).toList();
    }

    /**
     * Metaparams ({@code meta:}), as mgmt defines them.
     *
     * @param retry how many times a failed checkApply or watch is retried (-1: forever)
     * @param delayMs pause before each retry
     * @param pollSeconds when above 0, check every that many seconds instead of watching
     * @param limit most checkApply runs per second (infinite: no limit), with {@code burst} at once
     * @param sema named counted semaphores ({@code name} or {@code name:N}) shared across the graph
     * @param rewatch on a graph swap, restart this resource's watch if it failed
     * @param realize on a graph swap, let this resource converge once before it is replaced or removed
     * @param reverse when the resource leaves the graph, undo what it did
     * @param export when set, the resource is published for other hosts to collect, not applied here
     */
    public record Meta(boolean noop, int retry, long delayMs, int pollSeconds, double limit, int burst, List<String> sema,
                       boolean rewatch, boolean realize, boolean reverse, boolean autoedge, boolean autogroup, Export export) {
        public static final Meta DEFAULT = new Meta(false, 0, 0, 0, Double.POSITIVE_INFINITY, 0, List.of(),
                false, false, false, true, true, null);

        public Meta {
            sema = List.copyOf(sema);
        }

        public boolean exported() {
            return export != null;
        }

        /** Whether a failure of attempt number {@code attempt} (0 is the first) is followed by another. */
        public boolean retries(int attempt) {
            return retry < 0 || attempt < retry;
        }

        public Meta withNoop() {
            return new Meta(true, retry, delayMs, pollSeconds, limit, burst, sema, rewatch, realize, reverse, autoedge, autogroup, export);
        }
    }

    /**
     * {@code meta.export}: who may collect the resource and the tags collectors choose it by.
     *
     * @param to host patterns (as a {@code nodes:} section's) of the hosts that may collect it; none: any host
     */
    public record Export(List<String> to, List<String> tags) {
        public Export {
            to = List.copyOf(to);
            tags = List.copyOf(tags);
        }
    }

    /** {@code control: {if, unless}}: a resource whose condition fails is skipped, not failed. */
    public record Control(Condition onlyIf, Condition unless) {
        public static final Control NONE = new Control(null, null);

        /** The same conditions, wherever they are written. */
        public boolean sameAs(Control other) {
            return Objects.equals(source(onlyIf), source(other.onlyIf)) && Objects.equals(source(unless), source(other.unless));
        }

        private static String source(Condition condition) {
            return condition == null ? null : condition.source();
        }
    }

    /**
     * An expression (or template) that must come out true or false, as written ({@code true} and {@code false}
     * too); it is parsed where it runs.
     */
    public record Condition(String source, Mark mark) {}
}
