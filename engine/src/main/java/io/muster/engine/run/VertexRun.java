package io.muster.engine.run;

import io.muster.engine.compile.Conditions;
import io.muster.engine.compile.Rendering;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.health.HealthChecks;
import io.muster.engine.health.HealthResult;
import io.muster.engine.health.StopSignal;
import io.muster.engine.manifest.Mark;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.resource.Foreseeable;
import io.muster.engine.resource.Groupable;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Params;
import io.muster.engine.resource.Refreshable;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Reversible;
import io.muster.engine.template.Scope;
import io.muster.engine.template.TemplateException;
import io.muster.engine.template.UnresolvableException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one vertex once: evaluates its control conditions, renders late properties with the values
 * produced so far, builds and validates the resource, calls {@code checkApply}, then runs its health checks
 * (only those, in health-check mode). Never throws: every outcome becomes a {@link ResourceReport}.
 */
final class VertexRun {
    private final RunOptions options;
    private final Values values;
    private final RunShared shared;
    /** The run's stop: a health check makes no further try after it. */
    private final StopSignal stop;
    /** The run's: what the durations in reports are measured on. */
    private final Clock clock;
    /** The graph the vertices are of: in noop, what comes before a resource may make what it lacks. */
    private final Graph graph;

    VertexRun(RunOptions options, Values values, RunShared shared, StopSignal stop, Clock clock, Graph graph) {
        this.options = options;
        this.values = values;
        this.shared = shared;
        this.stop = stop;
        this.clock = clock;
        this.graph = graph;
    }

    ResourceReport run(Vertex v, boolean refresh) {
        long start = now();
        boolean noop = options.noop() || v.meta().noop();
        String doing = "conditions"; // what an Error interrupted, for its report
        Scope scope = scope(v);
        try {
            String skip = Conditions.skipReason(v.control(), scope);
            if (skip != null) {
                if (v.meta().exported() && !noop) shared.exports().withdraw(v);
                return ResourceReport.skipped(v.id(), skip);
            }
            if (options.healthCheckOnly() || v.origin().healthCheckOnly()) { // nothing but the checks, which change nothing
                doing = "health check";
                List<HealthResult> checks = HealthChecks.run(v.allHealthChecks(), v.params().directory(), stop);
                return ResourceReport.stable(v.id(), null, millis(start)).withHealthChecks(checks);
            }
            doing = "rendering";
            Resource resource = build(v, scope);
            if (v.meta().exported()) return export(v, scope, noop, start);
            boolean refreshed = refresh && resource instanceof Refreshable;
            RunContext context = context(v, refreshed, values.read(v.id()));
            doing = "remember (meta.reverse)";
            if (!noop && v.meta().reverse()) remember(v, resource, context, scope);
            doing = noop ? "check" : "check or apply";
            Result result = resource.checkApply(context, !noop);
            values.record(v.id(), result.outputs(), noop);
            if (options.noop() && result.isChanged() && resource instanceof Foreseeable foreseeable) {
                doing = "foresight";
                String doom = foreseeable.failureToCome(new GraphUpstream(graph, v));
                if (doom != null) return ResourceReport.wouldFail(v.id(), result.changes(), scope.lookup().redact(doom), millis(start));
            }
            doing = "health check";
            // health checks judge the converged state; in noop it was not reached, so they would judge nothing
            List<HealthResult> health = noop ? List.of() : HealthChecks.run(v.allHealthChecks(), v.params().directory(), stop);
            return ResourceReport.checked(v.id(), result.isChanged(), result.changes(), refreshed, result.message(), millis(start))
                    .withHealthChecks(health);
        } catch (UnresolvableException e) {
            values.record(v.id(), Map.of(), true); // what reads this resource's values is unresolvable too
            return ResourceReport.unresolvable(v.id(), scope.lookup().redact(e.getMessage()), millis(start));
        } catch (InvalidResourceException e) {
            Mark mark = e.property() == null ? v.mark() : v.propertyMarks().getOrDefault(e.property(), v.mark());
            return failed(v, start, mark + ": " + scope.lookup().redact((e.property() == null ? "" : e.property() + ": ") + e.getMessage()));
        } catch (TemplateException | IllegalArgumentException e) {
            return failed(v, start, scope.lookup().redact(e.getMessage() == null ? e.toString() : e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(v, start, "interrupted");
        } catch (Throwable e) { // an Error too (a stack overflow, a huge allocation): it fails this resource, not the run
            return failed(v, start, describe(e, v.id(), doing, scope.lookup()::redact));
        }
    }

    /**
     * Publishes {@code v}, rendered and validated here, for other hosts to collect (in noop: only says it
     * would). A resource that reads sensitive values is not exported: they would be stored in the fleet.
     */
    private ResourceReport export(Vertex v, Scope scope, boolean noop, long start) throws InterruptedException {
        Params params = bind(v, scope);
        if (!v.received().isEmpty() || scope.lookup().sensitive(v.id()) || Boolean.TRUE.equals(params.raw("sensitive"))) {
            return failed(v, start, v.mark() + ": meta.export: a resource with sensitive values is not exported (they would be stored in the fleet)");
        }
        if (noop) return ResourceReport.stable(v.id(), "would export", millis(start));
        try {
            boolean changed = shared.exports().publish(v, params);
            String message = shared.exports().reachesOtherHosts() ? "exported" : "exported to no other host: this run has no fleet";
            return ResourceReport.checked(v.id(), changed, List.of(), false, message, millis(start));
        } catch (ExecutionException e) {
            return failed(v, start, "export failed: " + (e.getCause() == null ? e : e.getCause()).getMessage());
        }
    }

    /**
     * Lets each declared resource keep what {@code reverse} will need in its own state dir, also when it
     * runs in a group: reversing is done resource by resource.
     */
    private void remember(Vertex v, Resource resource, RunContext context, Scope scope) throws Exception {
        if (v.grouped().isEmpty()) {
            if (resource instanceof Reversible reversible) reversible.remember(context);
            return;
        }
        for (Vertex declared : v.declared()) {
            if (build(declared, scope) instanceof Reversible reversible) {
                reversible.remember(context(declared, false, false));
            }
        }
    }

    /** The context {@code v}'s resource runs with. */
    RunContext context(Vertex v, boolean refresh, boolean valuesRead) {
        return new RunContext(options, shared, v, refresh, valuesRead);
    }

    /**
     * The resource as it stands now: late properties rendered with the values produced so far; for a group,
     * the resource that converges all its members (which have no late properties).
     */
    static Resource build(Vertex v, Scope scope) throws InvalidResourceException {
        Resource resource = v.kind().create(bind(v, scope));
        resource.validate();
        if (v.grouped().isEmpty()) return resource;
        List<Groupable> others = new ArrayList<>();
        for (Vertex member : v.grouped()) others.add((Groupable) build(member, scope));
        return ((Groupable) resource).group(others);
    }

    /** What {@code v}'s templates see; its lookup redacts the sensitive values they read from error messages. */
    Scope scope(Vertex v) {
        return v.scope(new SensitiveReads(values, v));
    }

    /**
     * The compile-time parameters plus the late ones, rendered now and type-checked. Rendered with a
     * sensitive resource's values, they are sensitive too: the kind's own {@code sensitive} is set, and a
     * value of the wrong type is not shown; each rendered value is handed to the lookup to redact from errors.
     */
    static Params bind(Vertex v, Scope scope) {
        if (v.late().isEmpty()) return v.params();
        boolean sensitive = scope.lookup().sensitive(v.id());
        Map<String, Object> all = new LinkedHashMap<>(v.params().values());
        v.late().forEach((name, raw) -> {
            try {
                Object rendered = Rendering.renderLate(raw, scope);
                if (sensitive) scope.lookup().renderedSensitive(rendered);
                all.put(name, v.kind().schema().property(name).coerce(rendered));
            } catch (TemplateException e) {
                throw new TemplateException(v.propertyMarks().get(name) + ": " + name + ": " + e.getMessage());
            } catch (IllegalArgumentException e) { // the rendered value has the wrong type
                String why = sensitive ? name + ": the value has the wrong type (sensitive: not shown)" : e.getMessage();
                throw new TemplateException(v.propertyMarks().get(name) + ": " + why);
            }
        });
        if (sensitive && v.kind().schema().property("sensitive") != null) all.put("sensitive", true);
        return new Params(v.name(), all, v.params().directory());
    }

    private ResourceReport failed(Vertex v, long start, String error) {
        return ResourceReport.failed(v.id(), null, error, millis(start));
    }

    /** A report as a run shows it: with its vertex's child manifest and the resources grouped into it. */
    static ResourceReport placed(Vertex v, ResourceReport report) {
        return report.placed(v.origin().childManifest(), v.groupedIds());
    }

    /** Now on the run's clock: where a duration {@link #millis} measures starts. */
    long now() {
        return clock.nanoTime();
    }

    /** Milliseconds since {@code start}, a {@link #now()}. */
    long millis(long start) {
        return (clock.nanoTime() - start) / 1_000_000;
    }

    /**
     * What a report says of something a resource threw, redacted: an exception's message (or what it is, when it
     * has none); for an {@link Error}, which one and what it interrupted ({@code internal error: StackOverflowError
     * in check}). With {@code --debug} its stack trace is logged too, under the same redaction (a message may
     * quote a sensitive value the resource read).
     */
    static String describe(Throwable e, String id, String doing, UnaryOperator<String> redact) {
        Logger log = LoggerFactory.getLogger("muster");
        if (log.isDebugEnabled()) {
            Throwable shown = new Throwable(redact.apply(e.toString()));
            shown.setStackTrace(e.getStackTrace());
            log.debug("{}: failed in {}", id, doing, shown);
        }
        if (!(e instanceof Error)) return redact.apply(e.getMessage() == null ? e.toString() : e.getMessage());
        return redact.apply("internal error: " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")")
                + " in " + doing);
    }
}
