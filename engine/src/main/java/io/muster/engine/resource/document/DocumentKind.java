package io.muster.engine.resource.document;

import io.muster.engine.manifest.YNode;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import io.muster.engine.resource.file.FileMode;
import io.muster.engine.util.Maps;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code document}: the fields of a JSON or YAML file that the manifest sets, merged into whatever else
 * the file holds (see {@link ThreeWayMerge}).
 */
public final class DocumentKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of("path", Set.of(),
            Property.required("path", Type.PATH),
            Property.oneOf("ensure", "present", "absent"),
            Property.optional("content", Type.ANY).checkedBy(DocumentKind::contentProblem),
            Property.oneOf("format", "json", "yaml"),
            Property.optional("mode", Type.STRING).checkedBy(FileMode::problem),
            Property.optional("sensitive", Type.BOOLEAN));

    @Override
    public String name() {
        return "document";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Resource create(TypedParams p) throws InvalidResourceException {
        Path path = p.absolutePath("path");
        if (path.getParent() == null) throw new InvalidResourceException("path", "cannot manage / as a document");
        return new DocumentResource(path,
                format(p, path),
                p.choice("ensure", DocumentResource.Ensure.PRESENT),
                p.optionalAny("content").map(content -> Maps.cast((Map<?, ?>) Values.plain(content))).orElse(null),
                p.optionalString("mode").map(FileMode::parse).orElse(null),
                p.bool("sensitive", false));
    }

    private static DocumentFormat format(TypedParams p, Path path) throws InvalidResourceException {
        Optional<DocumentFormat> set = p.optionalChoice("format", DocumentFormat.class);
        if (set.isPresent()) return set.get();
        DocumentFormat byName = DocumentFormat.byExtension(path.getFileName().toString());
        if (byName == null) {
            throw new InvalidResourceException("format", "cannot tell from the name of " + path
                    + " whether it is JSON or YAML (expected .json, .yaml or .yml); set format: json or format: yaml");
        }
        return byName;
    }

    private static String contentProblem(Object raw) {
        return raw == null || raw instanceof Map<?, ?> ? null
                : "expected a map of the fields to manage, got " + YNode.describeValue(raw);
    }
}
