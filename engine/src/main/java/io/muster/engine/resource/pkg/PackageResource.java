package io.muster.engine.resource.pkg;

import io.muster.engine.resource.Context;
import io.muster.engine.resource.Edgeable;
import io.muster.engine.resource.Groupable;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Watcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One Debian package as the manifest wants it. Alone it converges as a transaction of one; grouped, the
 * packages of a run converge in one {@link PackageTransaction}. Provides {@code package:NAME}, which a service
 * or a file of the package can come after.
 */
record PackageResource(String name, Ensure ensure) implements Groupable, Edgeable {
    /** Debian's package names, with an optional architecture ({@code libc6:i386}); never an option to apt. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9+.-]*(:[a-z0-9-]+)?");

    @Override
    public void validate() throws InvalidResourceException {
        if (!NAME.matcher(name).matches()) {
            throw new InvalidResourceException("name", "'" + name + "' is not a Debian package name: expected lower-case"
                    + " letters, digits, '+', '-' and '.', starting with a letter or digit (and ':ARCH' for another architecture)");
        }
    }

    @Override
    public Result checkApply(Context context, boolean apply) throws Exception {
        return new PackageTransaction(List.of(this)).checkApply(context, apply);
    }

    @Override
    public void watch(Watcher watcher) throws Exception {
        new PackageTransaction(List.of(this)).watch(watcher);
    }

    @Override
    public boolean groupsWith(Groupable other) {
        return other instanceof PackageResource;
    }

    @Override
    public Resource group(List<Groupable> others) {
        List<PackageResource> all = new ArrayList<>(List.of(this));
        for (Groupable other : others) all.add((PackageResource) other);
        return new PackageTransaction(all);
    }

    @Override
    public Set<String> provides() {
        return Set.of("package:" + name);
    }

    @Override
    public List<List<String>> wants() {
        return List.of();
    }
}
