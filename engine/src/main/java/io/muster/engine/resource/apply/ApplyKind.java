package io.muster.engine.resource.apply;

import io.muster.engine.manifest.YNode;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.util.Map;
import java.util.Set;

/**
 * {@code apply}: runs a child manifest (the name, a path relative to this manifest) inside this run. The
 * compiler reads the child into the same graph, each child resource before this one; the engine makes this
 * resource's outcome that of its children (changed when one changed, failed when one failed).
 */
public final class ApplyKind implements ResourceKind {
    public static final String NAME = "apply";

    private static final Schema SCHEMA = Schema.of(null, Set.of(),
            Property.oneOf("ensure", "present"),
            Property.optional("noop", Type.BOOLEAN),
            Property.optional("health_check_only", Type.BOOLEAN),
            Property.optional("allow_apply", Type.BOOLEAN),
            Property.optional("data", Type.ANY).checkedBy(v -> v instanceof Map<?, ?> ? null
                    : "expected a map of data for the child manifest, got " + YNode.describeValue(v)));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Resource create(TypedParams params) {
        return new Apply();
    }

    /** All the work happens in the child's resources; on its own, an apply resource changes nothing. */
    record Apply() implements Resource {
        @Override
        public Result checkApply(Context context, boolean apply) {
            return Result.STABLE;
        }
    }
}
