package io.muster.engine.resource.archive;

import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code archive}: an archive extracted into a directory, once; or downloaded to a file that is kept
 * ({@code file}), extracted from there or not ({@code extract: false}), and removed with {@code ensure: absent}.
 */
public final class ArchiveKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of("path", Set.of(),
            Property.required("path", Type.PATH),
            Property.required("source", Type.STRING).readsBundleFile(),
            Property.oneOf("ensure", "present", "absent"),
            Property.optional("checksum", Type.STRING),
            Property.optional("creates", Type.PATH),
            Property.optional("owner", Type.STRING),
            Property.optional("group", Type.STRING),
            Property.optional("file", Type.PATH),
            Property.optional("extract", Type.BOOLEAN),
            Property.optional("cleanup", Type.BOOLEAN),
            Property.optional("parents", Type.BOOLEAN),
            Property.optional("headers", Type.STRING_MAP),
            Property.optional("username", Type.STRING),
            Property.optional("password", Type.STRING));

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
        Path path = p.absolutePath("path");
        return new ArchiveResource(path, source(p),
                p.optionalString("checksum").map(c -> c.replaceFirst("(?i)^sha256:", "").toLowerCase(Locale.ROOT)).orElse(null),
                p.optionalAbsolutePath("creates").orElse(null), p.optionalString("owner").orElse(null),
                p.optionalString("group").orElse(null), p.bool("parents", false), kept(p));
    }

    private static ArchiveSource source(TypedParams p) throws InvalidResourceException {
        Optional<String> username = p.optionalString("username");
        Optional<String> password = p.optionalString("password");
        ArchiveSource.Credentials credentials = username.isEmpty() && password.isEmpty() ? null
                : new ArchiveSource.Credentials(username.orElse(null), password.orElse(null));
        return ArchiveSource.of(p.string("source"), p.directory(), p.stringMap("headers", Map.of()), credentials);
    }

    private static ArchiveResource.Kept kept(TypedParams p) throws InvalidResourceException {
        return new ArchiveResource.Kept(p.optionalAbsolutePath("file").orElse(null), p.bool("extract", true), p.bool("cleanup", false),
                p.string("ensure", "present").equals("absent"));
    }
}
