package io.muster.engine.resource;

import io.muster.engine.manifest.YNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A kind whose resources are aggregates: each stands for a scoped subgraph of member resources, declared in
 * a manifest of their own, and its outcome is its members' (changed when one changed, failed when one failed).
 * The compiler reads the members into the same graph, each before the aggregate and after what the
 * aggregate comes after, with a scope of their own; the engine reports the members' outcome in the
 * aggregate's place. {@code apply} is one; {@code collect} or a foreign manifest can be another.
 *
 * <p>An aggregate converges nothing itself, so it has no {@code control} or health checks of its own. Its
 * schema ({@link #schemaWith}) has the properties by which the compiler scopes the members.
 */
public interface AggregateKind extends ResourceKind {

    /** Run the members in noop; a member can strengthen noop, never weaken it. */
    String NOOP = "noop";
    /** Run only the members' health checks; strengthens like {@link #NOOP}. */
    String HEALTH_CHECK_ONLY = "health_check_only";
    /** {@code false}: the members' manifest may not contain aggregates itself. */
    String ALLOW_NESTING = "allow_apply";
    /** Data merged over the members' manifest's data. */
    String DATA = "data";

    /** An aggregate kind's schema: the properties by which it scopes its members, and its {@code own}. */
    static Schema schemaWith(Property... own) {
        List<Property> properties = new ArrayList<>(List.of(
                Property.optional(NOOP, Type.BOOLEAN),
                Property.optional(HEALTH_CHECK_ONLY, Type.BOOLEAN),
                Property.optional(ALLOW_NESTING, Type.BOOLEAN),
                Property.optional(DATA, Type.ANY).checkedBy(v -> v instanceof Map<?, ?> ? null
                        : "expected a map of data for the child manifest, got " + YNode.describeValue(v))));
        properties.addAll(List.of(own));
        return Schema.of(null, Set.of(), properties.toArray(Property[]::new));
    }

    /**
     * The manifest that declares the members of the aggregate {@code name}, declared in a manifest in
     * {@code directory}.
     *
     * @throws InvalidResourceException when {@code name} cannot name such a manifest
     */
    Path members(String name, Path directory) throws InvalidResourceException;

    /**
     * The aggregate's own resource, which the engine may build (to validate it, to compare it across a graph
     * swap) but never asks to converge: the members do that.
     */
    @Override
    default Resource create(TypedParams params) {
        return new Aggregate();
    }

    /** Converges and watches nothing: all the work happens in the members. */
    record Aggregate() implements Resource {
        @Override
        public Result checkApply(Context context, boolean apply) {
            return Result.STABLE;
        }
    }
}
