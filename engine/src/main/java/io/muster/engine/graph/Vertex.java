package io.muster.engine.graph;

import io.muster.engine.health.HealthCheck;
import io.muster.engine.manifest.Mark;
import io.muster.engine.resource.Params;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.template.Scope;
import java.util.List;
import java.util.Map;

/**
 * A compiled resource. {@code params} holds what was known at compile time; {@code late} holds the
 * properties, as written, whose templates read values produced at run time: they are rendered with
 * {@code scope} just before the resource runs.
 *
 * @param mark where the resource is declared (its name)
 * @param propertyMarks where each property is written, for errors found at run time
 * @param control the {@code control} conditions, evaluated just before the resource runs
 * @param origin the manifest it was declared in, and the modes its apply chain imposes
 * @param healthChecks run after it converged (or alone, in health-check mode)
 */
public record Vertex(String id, ResourceKind kind, Params params, Map<String, Object> late, Mark mark,
                     Map<String, Mark> propertyMarks, Control control, Meta meta, List<String> tags, Scope scope,
                     Origin origin, List<HealthCheck> healthChecks) {

    public String name() {
        return params.name();
    }

    /** Metaparams ({@code meta:}). */
    public record Meta(boolean noop, boolean autoedge) {
        public static final Meta DEFAULT = new Meta(false, true);
        /** The default for a resource of a child manifest applied in noop. */
        public static final Meta NOOP = new Meta(true, true);
    }

    /** {@code control: {if, unless}}: a resource whose condition fails is skipped, not failed. */
    public record Control(Condition onlyIf, Condition unless) {
        public static final Control NONE = new Control(null, null);
    }

    /** An expression (or template) that must come out true or false. */
    public record Condition(String source, Object expression, Mark mark) {}
}
