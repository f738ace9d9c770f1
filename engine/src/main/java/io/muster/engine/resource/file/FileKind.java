package io.muster.engine.resource.file;

import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.SessionContext;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import io.muster.engine.util.fs.TrustedDirectories;
import java.util.Set;

/**
 * {@code file}: a regular file, a directory (a tree copied from a source directory), or a symbolic link; its content,
 * owner, group and mode; its {@code sha256} is a value.
 */
public final class FileKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of("path", Set.of("sha256"),
            Property.required("path", Type.PATH),
            Property.oneOf("ensure", "present", "absent", "directory", "link"),
            Property.optional("target", Type.STRING),
            Property.optional("content", Type.STRING),
            Property.optional("source", Type.STRING).readsBundleFile(),
            Property.optional("owner", Type.STRING),
            Property.optional("group", Type.STRING),
            Property.optional("mode", Type.STRING).checkedBy(DesiredMode::problem),
            Property.optional("force", Type.BOOLEAN),
            Property.optional("recurse", Type.BOOLEAN),
            Property.optional("purge", Type.BOOLEAN),
            Property.optional("create", Type.BOOLEAN),
            Property.optional("parents", Type.BOOLEAN),
            Property.optional("sensitive", Type.BOOLEAN));

    @Override
    public String name() {
        return "file";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    /**
     * The directories the run's files are in, kept open so that each file's parent is not walked from "/"
     * again. A live run keeps none: it would hold them open for as long as it runs (a file system it writes
     * into could not be unmounted), and it checks a file at a time, on a change, where a walk costs nothing.
     */
    @Override
    public AutoCloseable openSession(SessionContext context) {
        return new TrustedDirectories(context.live() ? 0 : TrustedDirectories.CAPACITY);
    }

    @Override
    public Resource create(TypedParams p) throws InvalidResourceException {
        return new FileResource(p.absolutePath("path"),
                p.choice("ensure", FileResource.Ensure.PRESENT),
                p.optionalString("content").orElse(null),
                p.optionalString("source").map(source -> p.directory().resolve(source).normalize()).orElse(null),
                p.optionalString("owner").orElse(null),
                p.optionalString("group").orElse(null),
                p.optionalString("mode").map(DesiredMode::parse).orElse(null),
                p.bool("force", false),
                p.bool("sensitive", false),
                p.optionalString("target").orElse(null),
                p.bool("recurse", false),
                p.bool("purge", false),
                p.bool("create", true),
                p.bool("parents", false));
    }
}
