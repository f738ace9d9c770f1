package io.muster.engine.resource.line;

import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.util.Set;

/** {@code line}: a line of a text file, present or absent (Puppet's {@code file_line}). */
public final class LineKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of(null, Set.of(),
            Property.required("path", Type.PATH),
            Property.optional("line", Type.STRING),
            Property.oneOf("ensure", "present", "absent"),
            Property.optional("match", Type.STRING),
            Property.optional("after", Type.STRING),
            Property.optional("multiple", Type.BOOLEAN),
            Property.optional("sensitive", Type.BOOLEAN));

    @Override
    public String name() {
        return "line";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Resource create(TypedParams p) throws InvalidResourceException {
        return new LineResource(p.absolutePath("path"), p.optionalString("line").orElse(null),
                p.string("ensure", "present").equals("present"), p.optionalString("match").orElse(null),
                p.optionalString("after").orElse(null), p.bool("multiple", false), p.bool("sensitive", false));
    }
}
