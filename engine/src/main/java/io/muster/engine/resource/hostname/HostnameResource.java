package io.muster.engine.resource.hostname;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The host's names converged: each one set is compared, and in apply written where it lives. */
record HostnameResource(HostNames files, Optional<String> staticName, Optional<String> transientName,
                        Optional<String> prettyName) implements Resource {

    @Override
    public Result checkApply(Context context, boolean apply) throws Exception {
        List<Change> changes = new ArrayList<>();
        if (prettyName.isPresent() && !prettyName.get().equals(files.prettyName())) {
            changes.add(Change.of("pretty_hostname", files.prettyName(), prettyName.get()));
            if (apply) files.writePretty(prettyName.get());
        }
        if (staticName.isPresent() && !staticName.get().equals(files.staticName())) {
            changes.add(Change.of("static_hostname", files.staticName(), staticName.get()));
            if (apply) files.writeStatic(staticName.get());
        }
        if (transientName.isPresent() && !transientName.get().equals(files.transientName())) {
            changes.add(Change.of("transient_hostname", files.transientName(), transientName.get()));
            if (apply) files.writeTransient(transientName.get());
        }
        return changes.isEmpty() ? Result.STABLE : Result.changed(changes);
    }
}
