package io.muster.engine.resource.archive;

import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.util.Set;

/** {@code archive}: an archive extracted into a directory, once. */
public final class ArchiveKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of("path", Set.of(),
            Property.required("path", Type.PATH),
            Property.required("source", Type.STRING).readsBundleFile(),
            Property.optional("checksum", Type.STRING),
            Property.optional("creates", Type.PATH),
            Property.optional("owner", Type.STRING),
            Property.optional("group", Type.STRING));

    @Override
    public String name() {
        return "archive";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Resource create(TypedParams p) throws InvalidResourceException {
        return new ArchiveResource(p.absolutePath("path"), ArchiveSource.of(p.string("source"), p.directory()),
                p.optionalString("checksum").map(c -> c.replaceFirst("^sha256:", "").toLowerCase(java.util.Locale.ROOT)).orElse(null),
                p.optionalAbsolutePath("creates").orElse(null), p.optionalString("owner").orElse(null),
                p.optionalString("group").orElse(null));
    }
}
