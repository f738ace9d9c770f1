package io.muster.engine.resource.file;

import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Params;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import java.nio.file.Path;
import java.util.Set;

/** {@code file}: a regular file or directory, its content, owner, group and mode; its {@code sha256} is a value. */
public final class FileKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of("path", Set.of("sha256"),
            Property.required("path", Type.PATH),
            Property.oneOf("ensure", "present", "absent", "directory"),
            Property.optional("content", Type.STRING),
            Property.optional("source", Type.STRING),
            Property.optional("owner", Type.STRING),
            Property.optional("group", Type.STRING),
            Property.optional("mode", Type.STRING).checkedBy(FileMode::problem),
            Property.optional("force", Type.BOOLEAN),
            Property.optional("sensitive", Type.BOOLEAN));

    @Override
    public String name() {
        return "file";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Resource create(Params p) throws InvalidResourceException {
        Path source = p.has("source") ? p.directory().resolve(p.string("source")).normalize() : null;
        return new FileResource(p.absolutePath("path"),
                FileResource.Ensure.valueOf(p.string("ensure", "present").toUpperCase()),
                p.string("content"),
                source,
                p.string("owner"),
                p.string("group"),
                p.has("mode") ? FileMode.parse(p.string("mode")) : null,
                p.bool("force", false),
                p.bool("sensitive", false));
    }
}
