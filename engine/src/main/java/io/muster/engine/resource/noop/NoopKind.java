package io.muster.engine.resource.noop;

import io.muster.engine.resource.Context;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.util.Set;

/** {@code noop}: does nothing; a named point in the graph to hang relations on. */
public final class NoopKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of(null, Set.of(), Property.optional("comment", Type.STRING));

    @Override
    public String name() {
        return "noop";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Resource create(TypedParams params) {
        return new Noop(params.name());
    }

    record Noop(String name) implements Resource {
        @Override
        public Result checkApply(Context context, boolean apply) {
            return Result.STABLE;
        }
    }
}
