package io.muster.engine.resource.apply;

import io.muster.engine.resource.AggregateKind;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Schema;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * {@code apply}: runs a child manifest (the name, a path relative to this manifest) inside this run, as an
 * {@link AggregateKind aggregate} whose members are the child's resources.
 */
public final class ApplyKind implements AggregateKind {
    private static final Pattern URL = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]*://.*");
    private static final Schema SCHEMA = AggregateKind.schemaWith(Property.oneOf("ensure", "present"));

    @Override
    public String name() {
        return "apply";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Path members(String name, Path directory) throws InvalidResourceException {
        if (URL.matcher(name).matches()) {
            throw new InvalidResourceException(null, "expected a path relative to this manifest, not a URL");
        }
        return directory.resolve(name).normalize();
    }
}
