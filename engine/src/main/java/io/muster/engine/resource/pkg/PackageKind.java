package io.muster.engine.resource.pkg;

import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.SessionContext;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.util.Set;

/** {@code package}: a Debian package present, absent, purged, at apt's candidate or at one version; its {@code version} is a value. */
public final class PackageKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of("name", Set.of("version"),
            Property.required("name", Type.STRING),
            Property.optional("ensure", Type.STRING).checkedBy(Ensure::problem));

    @Override
    public String name() {
        return "package";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    /** Installing a package runs its maintainer scripts as root, and may bring any program or user. */
    @Override
    public boolean runsCommands() {
        return true;
    }

    /** The dpkg database, read once for all the run's packages. */
    @Override
    public AutoCloseable openSession(SessionContext context) throws Exception {
        return new PackageSession();
    }

    @Override
    public Resource create(TypedParams p) {
        return new PackageResource(p.string("name"), p.optionalString("ensure").map(Ensure::parse).orElse(Ensure.PRESENT));
    }
}
