package io.muster.engine.testing;

import io.muster.engine.resource.AggregateKind;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Schema;
import java.nio.file.Path;

/**
 * {@code bundle}: an aggregate that is not {@code apply}, so a test shows the engine composes by the role a
 * kind declares, not by its name. {@code bundle: [web]} includes {@code bundles/web.yaml} next to its
 * manifest. Not registered with ServiceLoader: tests add it with {@link io.muster.engine.resource.Kinds#with}.
 */
public final class BundleKind implements AggregateKind {
    private static final Schema SCHEMA = AggregateKind.schemaWith();

    @Override
    public String name() {
        return "bundle";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Path members(String name, Path directory) throws InvalidResourceException {
        if (name.contains("/")) throw new InvalidResourceException(null, "expected a bundle name, not a path");
        return directory.resolve("bundles").resolve(name + ".yaml");
    }
}
